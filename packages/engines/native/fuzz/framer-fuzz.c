// The framer's fuzzing harness (libFuzzer): an input is a flags byte (1: answers to HEAD, 2: the server closes after
// its last byte), a byte that seeds how the bytes are cut into reads, then what a server sends. Each input is framed
// twice, whole and cut into reads of 1 to 256 bytes, and the harness stops (abort) where the framer breaks what its
// callers count on: every byte taken or an answer or an error said; no answer made of nothing; answers whose bytes
// are the framer's own count of what it took; and the same answers, the same error, however the reads cut the bytes.
// Built and run by scripts/fuzz-framer.sh; the seed corpus (corpus/) is test/support/http-answers.ts's cases.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../http-framer.h"

static const uint8_t expected[] = "Hello World";

// what framing a stream came to: how many answers, a hash of their fields, how many bytes they held, and the error
typedef struct {
  uint64_t answers, hash, answered_bytes, taken;
  char error[FRAMER_MESSAGE];
} outcome;

static void mix(uint64_t *hash, uint64_t value) { *hash = (*hash ^ value) * 1099511628211ULL; }

static void check_answer(const http_framer *f, const framer_config *config, outcome *o) {
  if (f->body_bytes > f->bytes || f->status < 200 || f->status > 999) abort();
  if (config->head_only && f->body_bytes != 0) abort();
  if (f->body_ok && f->body_bytes != config->expected_len) abort();
  if (!f->body_ok && f->mismatch_at >= 0 && (uint64_t)f->mismatch_at > f->body_bytes) abort();
  if (f->sample_len > FRAMER_SAMPLE) abort();
  o->answers++;
  o->answered_bytes += f->bytes;
  mix(&o->hash, (uint64_t)f->status);
  mix(&o->hash, f->bytes);
  mix(&o->hash, f->body_bytes);
  mix(&o->hash, (uint64_t)f->body_ok << 1 | f->closes);
}

// frames `stream` in reads whose lengths come from `seed` (0: one read); true when it ended in an error
static void frame(const uint8_t *stream, size_t n, uint8_t flags, uint32_t seed, outcome *o) {
  framer_config config = {expected, sizeof expected - 1, flags & 1};
  http_framer *f = malloc(sizeof *f);
  if (!f) abort();
  framer_reset(f);
  memset(o, 0, sizeof *o);
  uint32_t x = seed;
  size_t pos = 0;
  int failed = 0;
  while (pos < n && !failed) {
    size_t len = n - pos;
    if (seed) {
      x = x * 1103515245u + 12345u;
      size_t cut = 1 + ((x >> 16) & 0xff);
      if (cut < len) len = cut;
    }
    size_t at = 0;
    while (at < len) {
      size_t used = (size_t)-1;
      framer_status status = framer_feed(f, &config, stream + pos + at, len - at, &used);
      if (used > len - at) abort();
      at += used;
      o->taken += used;
      if (status == FRAMER_ERROR) {
        if (f->error[0] == 0 || memchr(f->error, 0, sizeof f->error) == NULL) abort();
        memcpy(o->error, f->error, sizeof o->error);
        failed = 1;
        break;
      }
      if (status == FRAMER_MORE) {
        if (at != len) abort();
        break;
      }
      // an answer is at least a status line and a blank line
      if (used == 0 && f->bytes == 0) abort();
      check_answer(f, &config, o);
    }
    pos += len;
  }
  if (!failed && flags & 2) {
    framer_status status = framer_close(f, &config);
    if (status == FRAMER_ANSWER) check_answer(f, &config, o);
    if (status == FRAMER_ERROR) memcpy(o->error, f->error, sizeof o->error);
  }
  // the answers' bytes are bytes the framer took, never more
  if (o->answered_bytes > o->taken) abort();
  free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  outcome whole, cut;
  frame(data + 2, size - 2, data[0], 0, &whole);
  frame(data + 2, size - 2, data[0], (uint32_t)data[1] * 2654435761u + 1, &cut);
  if (whole.answers != cut.answers || whole.hash != cut.hash || strcmp(whole.error, cut.error) != 0) abort();
  return 0;
}
