#include "CGlimpseVisionKernels.h"
#include "cpu_features.h"

#include <stdlib.h>

// Each kernel body is written once as a macro and instantiated for the generic target and, on
// x86-64, for a popcnt-enabled target. The dispatcher picks one per process; on CPUs with
// AVX-512 VPOPCNTDQ the contiguous nearest-two scan uses a vector variant.

#define DIST4(q, r) \
    ((uint32_t)__builtin_popcountll((q)[0] ^ (r)[0]) + (uint32_t)__builtin_popcountll((q)[1] ^ (r)[1]) + \
     (uint32_t)__builtin_popcountll((q)[2] ^ (r)[2]) + (uint32_t)__builtin_popcountll((q)[3] ^ (r)[3]))

#define DEFINE_KERNELS(SUFFIX, ATTR)                                                                   \
    ATTR static uint32_t hamming256_##SUFFIX(const uint64_t *a, const uint64_t *b) {                  \
        return DIST4(a, b);                                                                            \
    }                                                                                                  \
    ATTR static void best2_##SUFFIX(const uint64_t *q, const uint64_t *refs, size_t count,            \
                                    int32_t *bi, uint32_t *bd, uint32_t *sd) {                         \
        const uint64_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];                                     \
        uint32_t best = 257, second = 257;                                                             \
        int32_t index = -1;                                                                            \
        for (size_t i = 0; i < count; i++) {                                                           \
            const uint64_t *r = refs + 4 * i;                                                          \
            uint32_t d = (uint32_t)__builtin_popcountll(q0 ^ r[0]) +                                   \
                         (uint32_t)__builtin_popcountll(q1 ^ r[1]) +                                   \
                         (uint32_t)__builtin_popcountll(q2 ^ r[2]) +                                   \
                         (uint32_t)__builtin_popcountll(q3 ^ r[3]);                                    \
            if (d < second) {                                                                          \
                if (d < best) { second = best; best = d; index = (int32_t)i; }                         \
                else { second = d; }                                                                   \
            }                                                                                          \
        }                                                                                              \
        *bi = index; *bd = best; *sd = second;                                                         \
    }                                                                                                  \
    ATTR static void best2_indexed_##SUFFIX(const uint64_t *q, const uint64_t *refs,                  \
                                            const uint32_t *indices, size_t count,                     \
                                            int32_t *bi, uint32_t *bd, uint32_t *sd) {                 \
        const uint64_t q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];                                     \
        uint32_t best = 257, second = 257;                                                             \
        int32_t index = -1;                                                                            \
        for (size_t i = 0; i < count; i++) {                                                           \
            const uint64_t *r = refs + 4 * (size_t)indices[i];                                         \
            uint32_t d = (uint32_t)__builtin_popcountll(q0 ^ r[0]) +                                   \
                         (uint32_t)__builtin_popcountll(q1 ^ r[1]) +                                   \
                         (uint32_t)__builtin_popcountll(q2 ^ r[2]) +                                   \
                         (uint32_t)__builtin_popcountll(q3 ^ r[3]);                                    \
            if (d < second) {                                                                          \
                if (d < best) { second = best; best = d; index = (int32_t)indices[i]; }                \
                else { second = d; }                                                                   \
            }                                                                                          \
        }                                                                                              \
        *bi = index; *bd = best; *sd = second;                                                         \
    }                                                                                                  \
    ATTR static void many_##SUFFIX(const uint64_t *q, const uint64_t *refs, size_t count,             \
                                   uint16_t *out) {                                                    \
        for (size_t i = 0; i < count; i++) out[i] = (uint16_t)DIST4(q, refs + 4 * i);                  \
    }                                                                                                  \
    ATTR static void codes_##SUFFIX(const uint64_t *q, const uint64_t *codes, size_t words,           \
                                    size_t count, uint16_t *out) {                                     \
        for (size_t i = 0; i < count; i++) {                                                           \
            const uint64_t *c = codes + words * i;                                                     \
            uint32_t d = 0;                                                                            \
            for (size_t w = 0; w < words; w++) d += (uint32_t)__builtin_popcountll(q[w] ^ c[w]);       \
            out[i] = (uint16_t)d;                                                                      \
        }                                                                                              \
    }

DEFINE_KERNELS(generic, )

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_POPCNT_VARIANT 1
DEFINE_KERNELS(popcnt, __attribute__((target("popcnt"))))

#include <immintrin.h>

// AVX-512 (VPOPCNTDQ) scan over contiguous descriptors: eight descriptors per step. Four
// vectors hold two descriptors each; two rounds of pairwise adds leave the eight distances in
// the lane order 0, 2, 4, 6, 1, 3, 5, 7.
__attribute__((target("avx512f,avx512vpopcntdq")))
static void best2_avx512(const uint64_t *q, const uint64_t *refs, size_t count,
                         int32_t *bi, uint32_t *bd, uint32_t *sd) {
    // Lane holding descriptor j of the block; visiting j in order keeps ties as in the scalar scan.
    static const int lane_of[8] = {0, 4, 1, 5, 2, 6, 3, 7};
    const __m512i qq = _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)q));
    uint32_t best = 257, second = 257;
    int32_t index = -1;
    size_t i = 0;
    uint64_t lanes[8];
    for (; i + 8 <= count; i += 8) {
        const uint64_t *r = refs + 4 * i;
        __m512i p0 = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512((const void *)(r)), qq));
        __m512i p1 = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512((const void *)(r + 8)), qq));
        __m512i p2 = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512((const void *)(r + 16)), qq));
        __m512i p3 = _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_loadu_si512((const void *)(r + 24)), qq));
        __m512i t01 = _mm512_add_epi64(_mm512_unpacklo_epi64(p0, p1), _mm512_unpackhi_epi64(p0, p1));
        __m512i t23 = _mm512_add_epi64(_mm512_unpacklo_epi64(p2, p3), _mm512_unpackhi_epi64(p2, p3));
        __m512i u01 = _mm512_add_epi64(t01, _mm512_shuffle_i64x2(t01, t01, _MM_SHUFFLE(2, 3, 0, 1)));
        __m512i u23 = _mm512_add_epi64(t23, _mm512_shuffle_i64x2(t23, t23, _MM_SHUFFLE(2, 3, 0, 1)));
        __m512i v = _mm512_mask_blend_epi64(0xCC, u01, u23);
        _mm512_storeu_si512((void *)lanes, v);
        for (int j = 0; j < 8; j++) {
            uint32_t d = (uint32_t)lanes[lane_of[j]];
            if (d < second) {
                if (d < best) { second = best; best = d; index = (int32_t)(i + (size_t)j); }
                else { second = d; }
            }
        }
    }
    for (; i < count; i++) {
        const uint64_t *r = refs + 4 * i;
        uint32_t d = (uint32_t)__builtin_popcountll(q[0] ^ r[0]) + (uint32_t)__builtin_popcountll(q[1] ^ r[1]) +
                     (uint32_t)__builtin_popcountll(q[2] ^ r[2]) + (uint32_t)__builtin_popcountll(q[3] ^ r[3]);
        if (d < second) {
            if (d < best) { second = best; best = d; index = (int32_t)i; }
            else { second = d; }
        }
    }
    *bi = index; *bd = best; *sd = second;
}

// The whole query set against one reference range. The full blocks of eight references are copied
// word-major (block b, word w: the eight references' word w side by side), so a step is four loads,
// four XORs against the broadcast query words, four popcounts and three adds, with the distances in
// reference order. Each of the eight lanes keeps its own nearest (first index on ties) and second
// nearest, branch-free; the lanes are merged at the end into the scalar scan's answer: the nearest is
// the smallest lane best (the lowest index among equals), the second the next smallest of all lanes'
// bests and seconds.
__attribute__((target("avx512f,avx512vpopcntdq")))
static int best2_all_avx512(const uint64_t *queries, size_t query_count, const uint64_t *refs, size_t ref_count,
                            int32_t *bi, uint32_t *bd, uint32_t *sd) {
    const size_t blocks = ref_count / 8;
    uint64_t *grouped = NULL;
    if (blocks > 0) {
        grouped = (uint64_t *)aligned_alloc(64, blocks * 32 * sizeof(uint64_t));
        if (grouped == NULL) return -1;
        for (size_t b = 0; b < blocks; b++) {
            for (int w = 0; w < 4; w++) {
                for (int lane = 0; lane < 8; lane++) {
                    grouped[b * 32 + (size_t)w * 8 + (size_t)lane] = refs[(b * 8 + (size_t)lane) * 4 + (size_t)w];
                }
            }
        }
    }
    const __m512i first_indices = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i eight = _mm512_set1_epi64(8);
    uint64_t lane_best[8], lane_second[8], lane_index[8];
    for (size_t qi = 0; qi < query_count; qi++) {
        const uint64_t *q = queries + 4 * qi;
        const __m512i q0 = _mm512_set1_epi64((long long)q[0]), q1 = _mm512_set1_epi64((long long)q[1]);
        const __m512i q2 = _mm512_set1_epi64((long long)q[2]), q3 = _mm512_set1_epi64((long long)q[3]);
        __m512i best_v = _mm512_set1_epi64(257), second_v = best_v;
        __m512i index_v = _mm512_set1_epi64(-1), next_v = first_indices;
        for (size_t b = 0; b < blocks; b++) {
            const uint64_t *g = grouped + b * 32;
            const __m512i d = _mm512_add_epi64(
                _mm512_add_epi64(_mm512_popcnt_epi64(_mm512_xor_si512(_mm512_load_si512((const void *)g), q0)),
                                 _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_load_si512((const void *)(g + 8)), q1))),
                _mm512_add_epi64(_mm512_popcnt_epi64(_mm512_xor_si512(_mm512_load_si512((const void *)(g + 16)), q2)),
                                 _mm512_popcnt_epi64(_mm512_xor_si512(_mm512_load_si512((const void *)(g + 24)), q3))));
            const __mmask8 beats_best = _mm512_cmplt_epu64_mask(d, best_v);
            const __mmask8 beats_second = _mm512_cmplt_epu64_mask(d, second_v);
            second_v = _mm512_mask_mov_epi64(second_v, beats_second, d);
            second_v = _mm512_mask_mov_epi64(second_v, beats_best, best_v);
            best_v = _mm512_mask_mov_epi64(best_v, beats_best, d);
            index_v = _mm512_mask_mov_epi64(index_v, beats_best, next_v);
            next_v = _mm512_add_epi64(next_v, eight);
        }
        _mm512_storeu_si512((void *)lane_best, best_v);
        _mm512_storeu_si512((void *)lane_second, second_v);
        _mm512_storeu_si512((void *)lane_index, index_v);
        // The nearest: the smallest lane best, the lowest index among equals.
        uint32_t best = 257;
        int32_t index = -1;
        int winner = 0;
        for (int lane = 0; lane < 8; lane++) {
            const uint32_t lb = (uint32_t)lane_best[lane];
            const int32_t li = (int32_t)(int64_t)lane_index[lane];
            if (lb < best || (lb == best && li >= 0 && li < index)) { best = lb; index = li; winner = lane; }
        }
        // The second: the winner's own second, or another lane's best (its second is never smaller).
        uint32_t second = (uint32_t)lane_second[winner];
        for (int lane = 0; lane < 8; lane++) {
            if (lane != winner && (uint32_t)lane_best[lane] < second) second = (uint32_t)lane_best[lane];
        }
        for (size_t i = blocks * 8; i < ref_count; i++) {
            const uint32_t dist = DIST4(q, refs + 4 * i);
            if (dist < second) {
                if (dist < best) { second = best; best = dist; index = (int32_t)i; }
                else { second = dist; }
            }
        }
        bi[qi] = index; bd[qi] = best; sd[qi] = second;
    }
    free(grouped);
    return 0;
}

#define DISPATCH(name, ...) (glimpse_cpu_has_popcnt() ? name##_popcnt(__VA_ARGS__) : name##_generic(__VA_ARGS__))
#else
#define DISPATCH(name, ...) (name##_generic(__VA_ARGS__))
#endif

uint32_t glimpse_hamming256(const uint64_t *a, const uint64_t *b) { return DISPATCH(hamming256, a, b); }

void glimpse_hamming_best2(const uint64_t *query, const uint64_t *refs, size_t count,
                           int32_t *best_index, uint32_t *best_distance, uint32_t *second_distance) {
#ifdef HAVE_POPCNT_VARIANT
    if (glimpse_cpu_has_avx512_popcnt()) {
        best2_avx512(query, refs, count, best_index, best_distance, second_distance);
        return;
    }
#endif
    DISPATCH(best2, query, refs, count, best_index, best_distance, second_distance);
}

int glimpse_hamming_best2_all(const uint64_t *queries, size_t query_count, const uint64_t *refs, size_t ref_count,
                              int32_t *best_index, uint32_t *best_distance, uint32_t *second_distance) {
    int status = 0;
#ifdef HAVE_POPCNT_VARIANT
    if (glimpse_cpu_has_avx512_popcnt()) {
        status = best2_all_avx512(queries, query_count, refs, ref_count, best_index, best_distance, second_distance);
        if (status == 0) return 0;
    }
#endif
    for (size_t i = 0; i < query_count; i++) {
        DISPATCH(best2, queries + 4 * i, refs, ref_count, best_index + i, best_distance + i, second_distance + i);
    }
    return status;
}

void glimpse_hamming_best2_indexed(const uint64_t *query, const uint64_t *refs, const uint32_t *indices,
                                   size_t count, int32_t *best_index, uint32_t *best_distance,
                                   uint32_t *second_distance) {
    DISPATCH(best2_indexed, query, refs, indices, count, best_index, best_distance, second_distance);
}

void glimpse_hamming_many(const uint64_t *query, const uint64_t *refs, size_t count, uint16_t *out) {
    DISPATCH(many, query, refs, count, out);
}

void glimpse_hamming_codes(const uint64_t *query, const uint64_t *codes, size_t words, size_t count, uint16_t *out) {
    DISPATCH(codes, query, codes, words, count, out);
}

int glimpse_hamming_uses_hardware_popcount(void) {
#ifdef HAVE_POPCNT_VARIANT
    return glimpse_cpu_has_popcnt();
#else
    return 0;
#endif
}

// The LSH lookup of every query descriptor: its key in each table (bit `positions[t * bits + j]` of the
// descriptor is key bit j), the descriptors of that bucket (skipped when it holds more than `cap`), and
// the nearest of them over all tables. In a large index nearly every step of a lookup is a cache miss
// (the bucket's offsets, its entries, each candidate), so query descriptors go in batches whose lookups
// advance stage by stage, each stage prefetching what the next one reads, and the misses overlap.
#define LSH_BATCH 16
void glimpse_lsh_nearest(const uint64_t *queries, size_t query_count, const uint64_t *refs, const uint32_t *entries,
                         const uint32_t *starts, const int32_t *positions, int tables, int bits, size_t count,
                         size_t cap, const uint64_t *copies, const uint32_t *copy_starts, size_t copy_line,
                         size_t copy_cap, int32_t *best_index, uint32_t *best_distance) {
    const size_t buckets = (size_t)1 << bits;
    const int used = tables < 32 ? tables : 32;
#define LSH_COPIED(size) (copies != NULL && (size) > copy_line && (size) <= copy_cap)
    uint32_t key[LSH_BATCH][32], lo[LSH_BATCH][32], hi[LSH_BATCH][32];
    for (size_t first = 0; first < query_count; first += LSH_BATCH) {
        const size_t n = query_count - first < LSH_BATCH ? query_count - first : LSH_BATCH;
        // Keys; prefetch each bucket's offsets.
        for (size_t b = 0; b < n; b++) {
            const uint64_t *q = queries + 4 * (first + b);
            for (int t = 0; t < used; t++) {
                uint32_t k = 0;
                const int32_t *pos = positions + (size_t)t * (size_t)bits;
                for (int j = 0; j < bits; j++) k |= (uint32_t)((q[pos[j] >> 6] >> (pos[j] & 63)) & 1u) << j;
                key[b][t] = k;
                __builtin_prefetch(starts + (size_t)t * (buckets + 1) + k, 0, 0);
            }
        }
        // Bucket bounds; prefetch the entries.
        for (size_t b = 0; b < n; b++) {
            for (int t = 0; t < used; t++) {
                const uint32_t *st = starts + (size_t)t * (buckets + 1) + key[b][t];
                lo[b][t] = st[0];
                hi[b][t] = st[1];
                if (hi[b][t] - lo[b][t] > cap) hi[b][t] = lo[b][t];
                if (hi[b][t] > lo[b][t]) __builtin_prefetch(entries + (size_t)t * count + lo[b][t], 0, 0);
            }
        }
        // Prefetch the candidates (a copied bucket's first descriptors; the rest stream in order).
        for (size_t b = 0; b < n; b++) {
            for (int t = 0; t < used; t++) {
                const size_t size = hi[b][t] - lo[b][t];
                if (LSH_COPIED(size)) {
                    __builtin_prefetch(copies + 4 * (size_t)copy_starts[(size_t)t * buckets + key[b][t]], 0, 0);
                    continue;
                }
                const uint32_t *e = entries + (size_t)t * count;
                for (uint32_t k = lo[b][t]; k < hi[b][t]; k++) __builtin_prefetch(refs + 4 * (size_t)e[k], 0, 0);
            }
        }
        // Measure.
        for (size_t b = 0; b < n; b++) {
            int32_t index = -1;
            uint32_t best = 257;
            for (int t = 0; t < used; t++) {
                if (hi[b][t] == lo[b][t]) continue;
                int32_t found = -1;
                uint32_t distance = 257, second = 257;
                const size_t size = hi[b][t] - lo[b][t];
                const uint32_t *bucket = entries + (size_t)t * count + lo[b][t];
                if (LSH_COPIED(size)) {
                    // The same descriptors in the same order, read from one contiguous run: the same answer.
                    int32_t at = -1;
                    glimpse_hamming_best2(queries + 4 * (first + b),
                                          copies + 4 * (size_t)copy_starts[(size_t)t * buckets + key[b][t]], size,
                                          &at, &distance, &second);
                    found = at >= 0 ? (int32_t)bucket[at] : -1;
                } else {
                    glimpse_hamming_best2_indexed(queries + 4 * (first + b), refs, bucket, size, &found, &distance,
                                                  &second);
                }
                if (distance < best) { best = distance; index = found; }
            }
            best_index[first + b] = index;
            best_distance[first + b] = best;
        }
    }
#undef LSH_COPIED
}
