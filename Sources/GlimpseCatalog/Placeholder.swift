// GlimpseCatalog: module placeholder; replaced as the module is written.
