/*
** sl_hash.c — the composite-key hashes (sl_hash.h). sl_map's own integer hash is
** sl_mix64, so a key folded here and hashed there is mixed twice; that costs a few
** multiplications and keeps the two independent.
*/
#include "sl_hash.h"

uint64_t sl_fnv64(const void *p, size_t len, uint64_t seed) {
  const unsigned char *s = p;
  uint64_t h = 1469598103934665603ull ^ seed; /* the traces' keys were built with this basis: kept */
  for (size_t i = 0; i < len; i++) h = (h ^ s[i]) * 1099511628211ull;
  return h;
}

uint64_t sl_mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}
