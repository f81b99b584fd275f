#ifndef CGLIMPSE_CODECS_H
#define CGLIMPSE_CODECS_H
/* Placeholder: the libpng/libjpeg shims are declared here. */
#endif
