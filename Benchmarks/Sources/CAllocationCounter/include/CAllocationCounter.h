// Counts heap allocations of the whole process, for glimpse-featureprint-bench's check that running
// the network allocates nothing. Linking this target replaces malloc, calloc, realloc, memalign,
// aligned_alloc and posix_memalign with counting wrappers around glibc's own (__libc_*); link it
// into benchmark executables only. On other C libraries the count stays 0.
#ifndef CALLOCATION_COUNTER_H
#define CALLOCATION_COUNTER_H

#include <stdint.h>

/// The number of allocation calls since the process started (0 when counting is unsupported).
uint64_t glimpse_allocation_count(void);

/// Whether this build counts allocations.
int glimpse_allocation_counting_supported(void);

#endif
