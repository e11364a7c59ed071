// The wire engine's HTTP/1.1 answer framer: it finds where each answer on a connection ends, from whatever slices the
// socket hands over, reading only what framing needs (status, Content-Length, Transfer-Encoding, Connection), and
// checks bodies against the expected bytes where they lie. A unit of its own with no Node-API in it, so that it can be
// fuzzed and tested alone (native/fuzz/). Its state is fixed in size: it allocates nothing, and every byte a server
// sends, of any length or content, is either framed or named as a failure.
#ifndef BENCH_HTTP_FRAMER_H
#define BENCH_HTTP_FRAMER_H

#include <stddef.h>
#include <stdint.h>

enum {
  // a head (status line and headers, or one interim answer's) larger than this is taken for a stream that is not HTTP
  FRAMER_MAX_HEAD = 65536,
  // the longest value kept of the headers framing reads (Content-Length, Transfer-Encoding, Connection)
  FRAMER_MAX_VALUE = 512,
  // the longest chunk-size line (size, extensions and CRLF)
  FRAMER_MAX_CHUNK_LINE = 4096,
  // bytes kept of a body where it first differed from the expected one
  FRAMER_SAMPLE = 60,
  FRAMER_MESSAGE = 160,
  // the status line's first bytes kept for its checks and for the message that quotes it
  FRAMER_STATUS_KEPT = 40,
};

// the largest length a number may give: 2^53 - 1, exact in a JavaScript number as in an int64
#define FRAMER_MAX_LENGTH 9007199254740991LL

typedef enum {
  // every byte given was taken; the answer under way is not whole yet
  FRAMER_MORE = 0,
  // an answer was framed whole: its fields are set; the bytes after it were not taken
  FRAMER_ANSWER = 1,
  // the bytes cannot be HTTP/1.1: `error` says why; the framer takes no more bytes
  FRAMER_ERROR = 2,
} framer_status;

typedef struct {
  // the body every answer must carry, byte for byte, or NULL: any body
  const uint8_t *expected;
  size_t expected_len;
  // answers to HEAD: no body, whatever the head says
  int head_only;
} framer_config;

typedef struct {
  // the answer last framed whole (after FRAMER_ANSWER)
  int status;
  // the server closes the connection after it (Connection: close, HTTP/1.0 without keep-alive, framed by the close)
  uint8_t closes;
  // its body was the expected one (always 1 without an expected body)
  uint8_t body_ok;
  // its bytes on the wire (interim answers before it, head, chunk framing, body, trailers), and its body's
  uint64_t bytes, body_bytes;
  // where its body first differed from the expected one (-1: it did not), and the bytes read there
  int64_t mismatch_at;
  uint8_t sample[FRAMER_SAMPLE];
  uint8_t sample_len;
  // why the bytes are not HTTP (after FRAMER_ERROR)
  char error[FRAMER_MESSAGE];

  // the state between reads (private)
  uint8_t phase, failed, http10, header, name_match, value_too_long, digits, last_cr;
  uint8_t has_length, has_encoding, chunked_last, keep_alive, close;
  // bytes of the head (or of the trailers) so far, of the line being read, of the value kept, of the status line
  uint32_t head_bytes, line_len, value_len, status_len;
  int64_t length, remaining;
  // the answer's bytes so far (interim answers' included), and its body's
  uint64_t answer_bytes, answer_body;
  char status_line[FRAMER_STATUS_KEPT];
  char value[FRAMER_MAX_VALUE];
} http_framer;

// ready for a new connection's first answer
void framer_reset(http_framer *f);

// Frames from data[0..n): FRAMER_ANSWER once an answer is whole (*used: the bytes taken, the answer's last among them),
// FRAMER_MORE when all n were taken, FRAMER_ERROR when they cannot be HTTP/1.1.
framer_status framer_feed(http_framer *f, const framer_config *config, const uint8_t *data, size_t n, size_t *used);

// The connection ended: FRAMER_ANSWER when an answer framed by the close is whole now, FRAMER_ERROR when one was cut
// short, FRAMER_MORE when none was under way.
framer_status framer_close(http_framer *f, const framer_config *config);

// Whether part of an answer (an interim one included) has been read.
int framer_mid_answer(const http_framer *f);

#endif
