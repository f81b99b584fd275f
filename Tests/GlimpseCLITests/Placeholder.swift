// GlimpseCLITests: placeholder; replaced as the tests are written.
