// XNNPACK from Debian's libxnnpack-dev (its header includes pthreadpool.h from libpthreadpool-dev).
// Only CGlimpseFeaturePrint calls it.
#include <xnnpack.h>
