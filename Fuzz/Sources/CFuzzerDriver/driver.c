// CFuzzerDriver only declares libFuzzer's LLVMFuzzerRunDriver (include/CFuzzerDriver.h); the
// definition comes from libclang_rt.fuzzer_no_main, which scripts/fuzz.sh links. SwiftPM wants one
// source file per C target.
#include "CFuzzerDriver.h"
