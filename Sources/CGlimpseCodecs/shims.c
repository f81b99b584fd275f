#include "CGlimpseCodecs.h"
