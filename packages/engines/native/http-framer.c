// The HTTP/1.1 answer framer (http-framer.h): a state machine over bytes, one phase per part of an answer, whose state
// lives between reads in a fixed-size struct. Heads are read a byte at a time except where nothing in them matters to
// framing (those lines are skipped with memchr); bodies are taken whole where they lie.
#include "http-framer.h"

#include <stdio.h>
#include <string.h>

enum {
  // the head: its status line, the start of a line (or the head's end), a header's name, a value framing reads (kept),
  // the rest of a line nothing reads, and the LF after a CR that starts a line (the head's end)
  P_STATUS,
  P_LINE,
  P_NAME,
  P_VALUE,
  P_SKIP,
  P_HEAD_LF,
  // a body of a known length
  P_BODY,
  // chunked: a chunk-size line's digits, its extensions, the LF after its CR, the data, the CRLF after the data,
  // then the trailers: a line's start (or their end), the rest of a line, the LF after a CR that starts a line
  P_CHUNK_SIZE,
  P_CHUNK_EXT,
  P_CHUNK_LF,
  P_CHUNK_DATA,
  P_DATA_CR,
  P_DATA_LF,
  P_TRAILER,
  P_TRAILER_SKIP,
  P_TRAILER_LF,
  // a body that ends when the connection does
  P_UNTIL_CLOSE,
};

// the headers framing reads
enum { H_OTHER, H_LENGTH, H_ENCODING, H_CONNECTION };
static const char *const header_names[] = {"", "content-length", "transfer-encoding", "connection"};
static const char *const header_titles[] = {"", "Content-Length", "Transfer-Encoding", "Connection"};

static int is_head_phase(uint8_t phase) { return phase <= P_HEAD_LF; }

// RFC 9110's token characters, the only ones a header's name may hold
static int is_token(uint8_t c) {
  if (c >= '0' && c <= '9') return 1;
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') return 1;
  return c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static int hex_digit(uint8_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static framer_status fail(http_framer *f, size_t *used, size_t pos, const char *text) {
  snprintf(f->error, sizeof f->error, "%s", text);
  f->failed = 1;
  *used = pos;
  return FRAMER_ERROR;
}

// the next answer's head starts
static void next_head(http_framer *f) {
  f->phase = P_STATUS;
  f->head_bytes = 0;
  f->line_len = 0;
  f->status_len = 0;
  f->last_cr = 0;
  f->header = H_OTHER;
  f->has_length = f->has_encoding = f->chunked_last = f->keep_alive = f->close = 0;
  f->length = 0;
}

void framer_reset(http_framer *f) {
  memset(f, 0, sizeof *f);
  f->mismatch_at = -1;
  f->body_ok = 1;
  next_head(f);
}

int framer_mid_answer(const http_framer *f) { return f->phase != P_STATUS || f->head_bytes > 0 || f->answer_bytes > 0; }

// the answer is whole: its totals become the answer's, and the next one starts from nothing
static framer_status answered(http_framer *f, const framer_config *config, size_t pos, size_t *used) {
  f->bytes = f->answer_bytes;
  f->body_bytes = f->answer_body;
  if (config->expected && f->answer_body != config->expected_len) f->body_ok = 0;
  f->answer_bytes = f->answer_body = 0;
  next_head(f);
  *used = pos;
  return FRAMER_ANSWER;
}

// a slice of the body, where it lies
static void body(http_framer *f, const framer_config *config, const uint8_t *data, size_t n) {
  if (config->expected && f->body_ok) {
    uint64_t at = f->answer_body;
    f->body_ok = at + n <= config->expected_len && memcmp(data, config->expected + at, n) == 0;
    // the first slice that differs is kept (a few bytes), only then
    if (!f->body_ok) {
      f->mismatch_at = (int64_t)at;
      f->sample_len = (uint8_t)(n < FRAMER_SAMPLE ? n : FRAMER_SAMPLE);
      memcpy(f->sample, data, f->sample_len);
    }
  }
  f->answer_body += n;
  f->answer_bytes += n;
}

// the status line, ended by LF: "HTTP/1.x SSS" and a reason phrase after a space, or nothing
static int status_line_ok(http_framer *f) {
  const char *s = f->status_line;
  uint32_t len = f->status_len;
  if (len < 12 || memcmp(s, "HTTP/1.", 7) != 0 || s[7] < '0' || s[7] > '9' || s[8] != ' ') return 0;
  if (s[9] < '1' || s[9] > '9' || s[10] < '0' || s[10] > '9' || s[11] < '0' || s[11] > '9') return 0;
  if (len > 12 && s[12] != ' ') return 0;
  f->status = (s[9] - '0') * 100 + (s[10] - '0') * 10 + (s[11] - '0');
  f->http10 = s[7] == '0';
  return 1;
}

// the status line quoted in a message, bytes that are not printable shown as '.'
static void status_line_message(http_framer *f) {
  char quoted[FRAMER_STATUS_KEPT + 1];
  uint32_t n = f->status_len < FRAMER_STATUS_KEPT ? f->status_len : FRAMER_STATUS_KEPT;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t c = (uint8_t)f->status_line[i];
    quoted[i] = c >= 0x20 && c < 0x7f ? (char)c : '.';
  }
  quoted[n] = 0;
  snprintf(f->error, sizeof f->error, "not an HTTP/1 status line: \"%s\"", quoted);
}

static int is_space(char c) { return c == ' ' || c == '\t'; }

// one element of a list value: from *at to the next comma, spaces around it dropped; 0 at the value's end
static int next_element(const char *v, uint32_t len, uint32_t *at, uint32_t *from, uint32_t *to) {
  if (*at > len) return 0;
  uint32_t start = *at, end = start;
  while (end < len && v[end] != ',') end++;
  *at = end + 1;
  while (start < end && is_space(v[start])) start++;
  while (end > start && is_space(v[end - 1])) end--;
  *from = start;
  *to = end;
  return 1;
}

static int element_is(const char *v, uint32_t from, uint32_t to, const char *word) {
  size_t n = strlen(word);
  return to - from == n && strncasecmp(v + from, word, n) == 0;
}

// a header framing reads, its value whole (CR dropped): 0, or -1 with the error set
static int header_value(http_framer *f) {
  const char *title = header_titles[f->header];
  if (f->value_too_long) {
    snprintf(f->error, sizeof f->error, "a %s header over %d bytes", title, FRAMER_MAX_VALUE);
    return -1;
  }
  uint32_t len = f->value_len;
  if (len > 0 && f->value[len - 1] == '\r') len--;
  uint32_t at = 0, from, to;
  if (f->header == H_LENGTH) {
    // a list of one length, said once or more (RFC 9110 8.6), at most 2^53 - 1
    int64_t length = -1;
    while (next_element(f->value, len, &at, &from, &to)) {
      int64_t value = 0;
      if (from == to) value = -1;
      for (uint32_t i = from; i < to && value >= 0; i++) {
        char c = f->value[i];
        if (c < '0' || c > '9') value = -1;
        else if (value > (FRAMER_MAX_LENGTH - (c - '0')) / 10) value = -2;
        else value = value * 10 + (c - '0');
      }
      if (value == -2) return snprintf(f->error, sizeof f->error, "Content-Length over 2^53 - 1"), -1;
      if (value < 0 || (length >= 0 && value != length)) break;
      length = value;
      if (at > len) {
        if (f->has_length && f->length != length)
          return snprintf(f->error, sizeof f->error, "Content-Length headers that differ"), -1;
        f->has_length = 1;
        f->length = length;
        return 0;
      }
    }
    snprintf(f->error, sizeof f->error, "Content-Length \"%.*s\"", (int)(len < 40 ? len : 40), f->value);
    return -1;
  }
  if (f->header == H_ENCODING) {
    // a list of codings: chunked frames the body when it is the last one (RFC 9112 6.3)
    f->has_encoding = 1;
    while (next_element(f->value, len, &at, &from, &to)) {
      uint32_t end = from;
      while (end < to && f->value[end] != ';' && !is_space(f->value[end])) end++;
      if (from < to) f->chunked_last = element_is(f->value, from, end, "chunked");
    }
    return 0;
  }
  // Connection: a list of tokens
  while (next_element(f->value, len, &at, &from, &to)) {
    if (element_is(f->value, from, to, "close")) f->close = 1;
    if (element_is(f->value, from, to, "keep-alive")) f->keep_alive = 1;
  }
  return 0;
}

// the head's end: how its answer is framed. 0: an interim answer, skipped; 1: a body to read; 2: the answer is whole
// (it has no body); -1: an error, set
static int head_end(http_framer *f, const framer_config *config) {
  if (f->status >= 100 && f->status < 200) {
    if (f->status == 101) {
      snprintf(f->error, sizeof f->error, "101 Switching Protocols, to a request that asked for no upgrade");
      return -1;
    }
    // an interim answer (100 Continue, 103 Early Hints): its bytes count in the final answer's, which follows
    next_head(f);
    return 0;
  }
  f->closes = f->close || (f->http10 && !f->keep_alive);
  f->body_ok = 1;
  f->mismatch_at = -1;
  f->sample_len = 0;
  if (config->head_only || f->status == 204 || f->status == 304) return 2;
  if (f->has_encoding && f->has_length) {
    snprintf(f->error, sizeof f->error, "both Transfer-Encoding and Content-Length");
    return -1;
  }
  if (f->has_encoding && f->chunked_last) {
    f->phase = P_CHUNK_SIZE;
    f->line_len = 0;
    f->digits = 0;
    f->remaining = 0;
    return 1;
  }
  if (f->has_length) {
    if (f->length == 0) return 2;
    f->phase = P_BODY;
    f->remaining = f->length;
    return 1;
  }
  // no length, or codings that do not end in chunked: the body ends with the connection
  f->phase = P_UNTIL_CLOSE;
  f->closes = 1;
  return 1;
}

// the header whose name ends here, if framing reads it
static uint8_t header_named(const http_framer *f) {
  for (uint8_t h = H_LENGTH; h <= H_CONNECTION; h++)
    if (f->line_len == strlen(header_names[h]) && f->name_match & (1u << h)) return h;
  return H_OTHER;
}

framer_status framer_feed(http_framer *f, const framer_config *config, const uint8_t *data, size_t n, size_t *used) {
  size_t pos = 0;
  *used = 0;
  if (f->failed) return FRAMER_ERROR;
  while (pos < n) {
    if (is_head_phase(f->phase)) {
      if (f->phase == P_SKIP) {
        // the rest of a line nothing reads, to its LF
        const uint8_t *lf = memchr(data + pos, '\n', n - pos);
        size_t take = lf ? (size_t)(lf - (data + pos)) + 1 : n - pos;
        if (f->head_bytes + take > FRAMER_MAX_HEAD) return fail(f, used, pos, "no end of head within 65536 bytes");
        f->head_bytes += (uint32_t)take;
        f->answer_bytes += take;
        pos += take;
        if (lf) f->phase = P_LINE;
        continue;
      }
      uint8_t c = data[pos++];
      if (++f->head_bytes > FRAMER_MAX_HEAD) return fail(f, used, pos, "no end of head within 65536 bytes");
      f->answer_bytes++;
      switch (f->phase) {
        case P_STATUS:
          if (c == '\n') {
            // the CR before LF is no part of the line
            if (f->last_cr) f->status_len--;
            if (!status_line_ok(f)) {
              status_line_message(f);
              f->failed = 1;
              *used = pos;
              return FRAMER_ERROR;
            }
            f->phase = P_LINE;
          } else {
            if (f->status_len < FRAMER_STATUS_KEPT) f->status_line[f->status_len] = (char)c;
            f->status_len++;
            f->last_cr = c == '\r';
          }
          break;
        case P_LINE:
          if (c == '\r') f->phase = P_HEAD_LF;
          else if (c == '\n') goto head_ends;
          else if (c == ' ' || c == '\t') {
            // obs-fold: a line that continues the last header's value
            if (f->header != H_OTHER) {
              char text[64];
              snprintf(text, sizeof text, "a folded %s header", header_titles[f->header]);
              return fail(f, used, pos, text);
            }
            f->phase = P_SKIP;
          } else if (is_token(c)) {
            f->phase = P_NAME;
            f->line_len = 1;
            f->name_match = 0;
            for (uint8_t h = H_LENGTH; h <= H_CONNECTION; h++)
              if ((c | 0x20) == header_names[h][0]) f->name_match |= (uint8_t)(1u << h);
          } else
            return fail(f, used, pos, c == ':' ? "a header without a name" : "a header name that is not a token");
          break;
        case P_NAME:
          if (c == ':') {
            f->header = header_named(f);
            f->phase = f->header == H_OTHER ? P_SKIP : P_VALUE;
            f->value_len = 0;
            f->value_too_long = 0;
          } else if (is_token(c)) {
            for (uint8_t h = H_LENGTH; h <= H_CONNECTION; h++)
              if (f->name_match & (1u << h) && (f->line_len >= strlen(header_names[h]) || (c | 0x20) != header_names[h][f->line_len]))
                f->name_match &= (uint8_t)~(1u << h);
            f->line_len++;
          } else
            return fail(f, used, pos, c == '\n' || c == '\r' ? "a header line without a colon" : "a header name that is not a token");
          break;
        case P_VALUE:
          if (c == '\n') {
            if (header_value(f) < 0) {
              f->failed = 1;
              *used = pos;
              return FRAMER_ERROR;
            }
            f->phase = P_LINE;
          } else if (f->value_len < FRAMER_MAX_VALUE) {
            // leading spaces are not kept
            if (f->value_len > 0 || !is_space((char)c)) f->value[f->value_len++] = (char)c;
          } else
            f->value_too_long = 1;
          break;
        case P_HEAD_LF:
          if (c != '\n') return fail(f, used, pos, "a CR not followed by LF in the head");
        head_ends: {
          int framing = head_end(f, config);
          if (framing < 0) {
            f->failed = 1;
            *used = pos;
            return FRAMER_ERROR;
          }
          if (framing == 2) return answered(f, config, pos, used);
          break;
        }
      }
      continue;
    }
    switch (f->phase) {
      case P_BODY:
      case P_CHUNK_DATA: {
        size_t k = (uint64_t)(n - pos) < (uint64_t)f->remaining ? n - pos : (size_t)f->remaining;
        body(f, config, data + pos, k);
        pos += k;
        f->remaining -= (int64_t)k;
        if (f->remaining == 0) {
          if (f->phase == P_BODY) return answered(f, config, pos, used);
          f->phase = P_DATA_CR;
        }
        break;
      }
      case P_CHUNK_SIZE: {
        uint8_t c = data[pos++];
        f->answer_bytes++;
        if (++f->line_len > FRAMER_MAX_CHUNK_LINE) return fail(f, used, pos, "a chunk-size line over 4096 bytes");
        int digit = hex_digit(c);
        if (digit >= 0) {
          // leading zeros are no digits of the size; fifteen hex digits are more than 2^53 - 1 can hold
          if (f->remaining > 0 || digit > 0) {
            if (f->remaining > (FRAMER_MAX_LENGTH - digit) / 16) return fail(f, used, pos, "a chunk size over 2^53 - 1");
            f->remaining = f->remaining * 16 + digit;
          }
          f->digits = 1;
          break;
        }
        if (!f->digits) return fail(f, used, pos, "chunk size not a hexadecimal number");
        if (c == ';' || c == ' ' || c == '\t') f->phase = P_CHUNK_EXT;
        else if (c == '\r') f->phase = P_CHUNK_LF;
        else if (c == '\n') goto chunk_size_read;
        else return fail(f, used, pos, "chunk size not a hexadecimal number");
        break;
      }
      case P_CHUNK_EXT: {
        // extensions (or spaces before them), to the line's LF
        const uint8_t *lf = memchr(data + pos, '\n', n - pos);
        size_t take = lf ? (size_t)(lf - (data + pos)) + 1 : n - pos;
        if (f->line_len + take > FRAMER_MAX_CHUNK_LINE) return fail(f, used, pos, "a chunk-size line over 4096 bytes");
        f->line_len += (uint32_t)take;
        f->answer_bytes += take;
        pos += take;
        if (lf) goto chunk_size_read;
        break;
      }
      case P_CHUNK_LF:
        f->answer_bytes++;
        if (++f->line_len > FRAMER_MAX_CHUNK_LINE) return fail(f, used, pos + 1, "a chunk-size line over 4096 bytes");
        if (data[pos++] != '\n') return fail(f, used, pos, "a chunk-size line not ended by CRLF");
      chunk_size_read:
        f->line_len = 0;
        f->head_bytes = 0;
        f->phase = f->remaining == 0 ? P_TRAILER : P_CHUNK_DATA;
        break;
      case P_DATA_CR:
      case P_DATA_LF: {
        uint8_t c = data[pos++];
        f->answer_bytes++;
        if (c != (f->phase == P_DATA_CR ? '\r' : '\n')) return fail(f, used, pos, "chunk data not followed by CRLF");
        if (f->phase == P_DATA_LF) f->phase = P_CHUNK_SIZE, f->digits = 0;
        else f->phase = P_DATA_LF;
        break;
      }
      case P_TRAILER:
      case P_TRAILER_LF: {
        uint8_t c = data[pos++];
        f->answer_bytes++;
        if (++f->head_bytes > FRAMER_MAX_HEAD) return fail(f, used, pos, "no end of trailers within 65536 bytes");
        if (f->phase == P_TRAILER_LF) {
          if (c != '\n') return fail(f, used, pos, "a CR not followed by LF in the trailers");
          return answered(f, config, pos, used);
        }
        if (c == '\r') f->phase = P_TRAILER_LF;
        else if (c == '\n') return answered(f, config, pos, used);
        else f->phase = P_TRAILER_SKIP;
        break;
      }
      case P_TRAILER_SKIP: {
        const uint8_t *lf = memchr(data + pos, '\n', n - pos);
        size_t take = lf ? (size_t)(lf - (data + pos)) + 1 : n - pos;
        if (f->head_bytes + take > FRAMER_MAX_HEAD) return fail(f, used, pos, "no end of trailers within 65536 bytes");
        f->head_bytes += (uint32_t)take;
        f->answer_bytes += take;
        pos += take;
        if (lf) f->phase = P_TRAILER;
        break;
      }
      case P_UNTIL_CLOSE:
        body(f, config, data + pos, n - pos);
        pos = n;
        break;
      default:
        return fail(f, used, pos, "the framer lost its place");
    }
  }
  *used = pos;
  return FRAMER_MORE;
}

framer_status framer_close(http_framer *f, const framer_config *config) {
  size_t used = 0;
  if (f->failed) return FRAMER_ERROR;
  if (f->phase == P_UNTIL_CLOSE) return answered(f, config, 0, &used);
  if (framer_mid_answer(f)) return fail(f, &used, 0, "the connection closed in the middle of an answer");
  return FRAMER_MORE;
}
