// The wire engine's native closed loop (Linux): -c keep-alive connections on one epoll set, each sending the run's
// request again as its answer is framed, with no call into JavaScript per read. JavaScript calls pump() for a slice of
// a few milliseconds and then counts the slice's events (connects, answers, failures) from a shared Float64Array.
// Built by scripts/build-native.mjs with the system's C compiler; without it the engine runs its JavaScript loop.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

// event records: 8 doubles each, the first its kind, the second its connection
enum { EV_CONNECTED = 1, EV_ANSWER = 2, EV_FAILED = 3 };
enum { RECORD = 12 };
// failure kinds, as the engine's FailureKind
enum { F_CONNECT = 0, F_RECEIVE = 1, F_EXCEPTIONS = 2, F_TIMEOUT = 3 };
// answer flags
enum { A_BODY_OK = 1, A_CLOSES = 2, A_FIRST = 4 };
// framing phases
enum { P_HEAD, P_BODY, P_CHUNK_SIZE, P_CHUNK_DATA, P_CHUNK_CRLF, P_TRAILER, P_UNTIL_CLOSE };

#define MAX_HEAD 65536
#define SAMPLE 60
#define RETRY_AFTER_REFUSAL_NS 10000000LL
// the most events one epoll_wait hands over
#define BATCH 256

typedef struct {
  int fd;
  int slot;
  // told apart from the slot's earlier connections in epoll's events, which may still be in the batch being read
  uint32_t generation;
  uint8_t connected, closing;
  int64_t asked_ns;
  uint32_t answers;
  // requests in flight: their send times in a ring of the pipeline's depth
  int64_t *sent;
  uint32_t oldest, inflight;
  // requests queued and not yet written whole, and how far into the first one the kernel took
  uint32_t unsent;
  size_t written;
  uint8_t want_out;
  // the answer being framed
  uint8_t phase, closes, body_ok, chunk_line_bad;
  int status;
  int64_t remaining;
  uint64_t bytes, body_bytes;
  uint32_t line_len;
  // where the body first differed from the expected one (-1: it did not), and the slice read there
  int64_t mismatch_at;
  char sample[SAMPLE];
  uint8_t sample_len;
  char *head;
  uint32_t head_len;
  // a connection closed waits here before it opens again (a refused connect is retried after 10 ms)
  int64_t reopen_at;
} conn_t;

typedef struct {
  int ep;
  struct sockaddr_in addr;
  conn_t *conns;
  int count;
  uint32_t depth;
  char *requests; // `depth` copies of the request, back to back: a pipeline leaves in one write
  size_t request_len;
  char *expected;
  size_t expected_len;
  int exact, head_only;
  int64_t timeout_ns;
  int64_t budget; // requests still to start; -1: no end (-d)
  uint32_t per_conn; // answers a connection gives before it is closed and replaced; 0: no limit
  int64_t opening;
  int stopped;
  // connections not opened yet: the first slices open them, as many as their records have room for
  int unopened;
  // connections waiting to open again
  int waiting;
  // performance.now() = (monotonic ns - origin_ns) / 1e6
  int64_t origin_ns;
  int64_t last_sweep_ns;
  // the slice's events, and the text their messages point into
  double *records;
  size_t records_cap, records_len;
  // the records an epoll batch's events may write: each read frames at most its pipeline's answers and a failure
  size_t room;
  char *text;
  size_t text_cap, text_len;
  napi_ref records_ref, text_ref;
  char read_buffer[65536];
} loop_t;

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}
static double ms_at(loop_t *l, int64_t ns) { return (double)(ns - l->origin_ns) / 1e6; }

static double *record(loop_t *l, int kind, conn_t *c) {
  double *r = l->records + l->records_len * RECORD;
  l->records_len++;
  memset(r, 0, sizeof(double) * RECORD);
  r[0] = kind;
  r[1] = c->slot;
  return r;
}

// a message for a failure, kept in the text buffer: its offset and length go in the record
static void text_at(loop_t *l, double *r, int at, const char *text, size_t n) {
  if (l->text_len + n > l->text_cap) n = l->text_cap > l->text_len ? l->text_cap - l->text_len : 0;
  memcpy(l->text + l->text_len, text, n);
  r[at] = (double)l->text_len;
  r[at + 1] = (double)n;
  l->text_len += n;
}
static void message(loop_t *l, double *r, const char *text) { text_at(l, r, 4, text, strlen(text)); }

static void watch(loop_t *l, conn_t *c, int op) {
  struct epoll_event e = {.events = EPOLLIN | EPOLLRDHUP | (c->connected && !c->want_out ? 0 : EPOLLOUT),
                          .data.u64 = (uint64_t)c->slot | ((uint64_t)c->generation << 32)};
  epoll_ctl(l->ep, op, c->fd, &e);
}

static void start_connect(loop_t *l, conn_t *c, int64_t now);

static void close_fd(loop_t *l, conn_t *c) {
  if (c->fd < 0) return;
  epoll_ctl(l->ep, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
  c->fd = -1;
  free(c->head);
  c->head = NULL;
  c->head_len = 0;
}

static int64_t take(loop_t *l, int64_t wanted) {
  if (l->budget < 0) return wanted;
  int64_t granted = wanted < l->budget ? wanted : l->budget;
  if (granted < 0) granted = 0;
  l->budget -= granted;
  return granted;
}

// the connection ended: a new one takes its place while the run goes on and the budget holds requests for it
static void ended(loop_t *l, conn_t *c, int refused, int64_t now) {
  close_fd(l, c);
  if (l->stopped) return;
  if (l->budget < 0 || l->budget > l->opening) {
    l->opening++;
    if (refused) c->reopen_at = now + RETRY_AFTER_REFUSAL_NS, l->waiting++;
    else start_connect(l, c, now);
  }
}

static void fail(loop_t *l, conn_t *c, int kind, const char *text, int64_t now) {
  if (c->fd < 0) return;
  int refused = !c->connected;
  uint32_t lost = c->inflight > 0 ? c->inflight : 1;
  double *r = record(l, EV_FAILED, c);
  r[2] = kind;
  r[3] = lost;
  r[6] = ms_at(l, now);
  message(l, r, text);
  c->inflight = 0;
  c->unsent = 0;
  if (refused) {
    l->opening--;
    // a connect that failed had no request in flight: the attempt is the request that failed
    take(l, 1);
  }
  ended(l, c, refused, now);
}

// errno's name, as Node's error codes give it
static const char *errno_name(int err, char *other) {
  switch (err) {
    case ECONNREFUSED: return "ECONNREFUSED";
    case ECONNRESET: return "ECONNRESET";
    case ECONNABORTED: return "ECONNABORTED";
    case EPIPE: return "EPIPE";
    case ETIMEDOUT: return "ETIMEDOUT";
    case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
    case EHOSTUNREACH: return "EHOSTUNREACH";
    case ENETUNREACH: return "ENETUNREACH";
    case EMFILE: return "EMFILE";
    case ENFILE: return "ENFILE";
    default: sprintf(other, "E%d", err); return other;
  }
}

// a failed system call, sorted into ab's buckets as the engine's classifyError sorts Node's error codes
static void fail_errno(loop_t *l, conn_t *c, const char *what, int err, int64_t now) {
  char text[96], other[16];
  snprintf(text, sizeof text, "%s %s", what, errno_name(err, other));
  int connect_code = err == ECONNREFUSED || err == EADDRNOTAVAIL || err == EHOSTUNREACH || err == ENETUNREACH || err == EMFILE ||
                     err == ENFILE || err == ETIMEDOUT;
  int receive_code = err == ECONNRESET || err == EPIPE || err == ECONNABORTED;
  fail(l, c, !c->connected || connect_code ? F_CONNECT : receive_code ? F_RECEIVE : F_EXCEPTIONS, text, now);
}

static void malformed(loop_t *l, conn_t *c, const char *what, int64_t now) {
  char text[160];
  snprintf(text, sizeof text, "malformed answer: %s", what);
  fail(l, c, F_EXCEPTIONS, text, now);
}

// writes what is queued; what the kernel does not take waits for EPOLLOUT
static int flush(loop_t *l, conn_t *c, int64_t now) {
  while (c->unsent > 0) {
    uint32_t copies = c->unsent < l->depth ? c->unsent : l->depth;
    size_t length = copies * l->request_len - c->written;
    // MSG_NOSIGNAL: a peer gone is an EPIPE to count, not a SIGPIPE
    ssize_t n = send(c->fd, l->requests + c->written, length, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) break;
      fail_errno(l, c, "write", errno, now);
      return -1;
    }
    size_t total = c->written + (size_t)n;
    c->unsent -= (uint32_t)(total / l->request_len);
    c->written = total % l->request_len;
    if ((size_t)n < length) break;
  }
  uint8_t want = c->unsent > 0;
  if (want != c->want_out) {
    c->want_out = want;
    watch(l, c, EPOLL_CTL_MOD);
  }
  return 0;
}

static void send_requests(loop_t *l, conn_t *c, uint32_t count, int64_t now) {
  for (uint32_t i = 0; i < count; i++) {
    uint32_t ring = c->oldest + c->inflight++;
    c->sent[ring < l->depth ? ring : ring - l->depth] = now;
  }
  c->unsent += count;
  if (!c->want_out) flush(l, c, now);
}

// requests the connection may still put in flight: its pipeline's depth, within what its answers' limit leaves
static uint32_t room_on(const loop_t *l, const conn_t *c) {
  uint32_t cap = l->depth;
  if (l->per_conn && l->per_conn - c->answers < cap) cap = l->per_conn - c->answers;
  return cap > c->inflight ? cap - c->inflight : 0;
}

static void start_connect(loop_t *l, conn_t *c, int64_t now) {
  c->reopen_at = 0;
  c->generation++;
  c->connected = 0;
  c->closing = 0;
  c->answers = 0;
  c->inflight = c->unsent = 0;
  c->oldest = 0;
  c->written = 0;
  c->want_out = 0;
  c->phase = P_HEAD;
  c->asked_ns = now;
  c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (c->fd < 0) {
    c->fd = -1;
    char text[64], other[16];
    snprintf(text, sizeof text, "connect %s", errno_name(errno, other));
    // no socket to fail: told as a failed connect, retried later
    double *r = record(l, EV_FAILED, c);
    r[2] = F_CONNECT;
    r[3] = 1;
    r[6] = ms_at(l, now);
    message(l, r, text);
    l->opening--;
    take(l, 1);
    ended(l, c, 1, now);
    return;
  }
  int one = 1;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  int status = connect(c->fd, (struct sockaddr *)&l->addr, sizeof l->addr);
  watch(l, c, EPOLL_CTL_ADD);
  if (status < 0 && errno != EINPROGRESS) fail_errno(l, c, "connect", errno, now);
}

static void connected(loop_t *l, conn_t *c, int64_t now) {
  int err = 0;
  socklen_t len = sizeof err;
  getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
  if (err) return fail_errno(l, c, "connect", err, now);
  c->connected = 1;
  l->opening--;
  double *r = record(l, EV_CONNECTED, c);
  r[2] = (double)(now - c->asked_ns) / 1e6;
  r[6] = ms_at(l, now);
  watch(l, c, EPOLL_CTL_MOD);
  if (!l->stopped) {
    int64_t granted = take(l, room_on(l, c));
    if (granted > 0) send_requests(l, c, (uint32_t)granted, now);
  }
}

static int header_is(const char *line, size_t name_len, const char *name) {
  return strlen(name) == name_len && strncasecmp(line, name, name_len) == 0;
}
static int value_has(const char *value, size_t len, const char *word) {
  size_t w = strlen(word);
  for (size_t i = 0; i + w <= len; i++)
    if (strncasecmp(value + i, word, w) == 0) return 1;
  return 0;
}

// frames an answer's head (status line and headers, `len` bytes up to and with its blank line); 0, or -1 on malformed
static int read_head(loop_t *l, conn_t *c, const char *h, size_t len, int64_t now) {
  if (len < 12 || strncmp(h, "HTTP/1.", 7) != 0 || h[8] != ' ' || h[9] < '0' || h[9] > '9' || h[10] < '0' || h[10] > '9' ||
      h[11] < '0' || h[11] > '9') {
    char text[96];
    size_t n = 0;
    while (n < len && n < 40 && h[n] != '\r') n++;
    snprintf(text, sizeof text, "not an HTTP/1 status line: \"%.*s\"", (int)n, h);
    malformed(l, c, text, now);
    return -1;
  }
  c->status = (h[9] - '0') * 100 + (h[10] - '0') * 10 + (h[11] - '0');
  int http10 = h[7] == '0';
  int keep_alive = 0, chunked = 0;
  int64_t length = -1;
  c->closes = 0;
  const char *p = memchr(h, '\n', len) + 1;
  const char *end = h + len;
  while (p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) break;
    const char *colon = memchr(p, ':', (size_t)(eol - p));
    if (colon) {
      const char *v = colon + 1;
      size_t vlen = (size_t)(eol - v);
      size_t name = (size_t)(colon - p);
      if (header_is(p, name, "content-length")) {
        length = 0;
        int digits = 0;
        for (const char *d = v; d < eol; d++) {
          if (*d >= '0' && *d <= '9') length = length * 10 + (*d - '0'), digits++;
          else if (*d != ' ' && *d != '\t' && *d != '\r') digits = -1000;
        }
        if (digits <= 0) {
          malformed(l, c, "Content-Length not a number", now);
          return -1;
        }
      } else if (header_is(p, name, "transfer-encoding")) chunked = value_has(v, vlen, "chunked");
      else if (header_is(p, name, "connection")) {
        if (value_has(v, vlen, "close")) c->closes = 1;
        if (value_has(v, vlen, "keep-alive")) keep_alive = 1;
      }
    }
    p = eol + 1;
  }
  if (http10 && !keep_alive) c->closes = 1;
  c->bytes = len;
  c->body_bytes = 0;
  c->body_ok = 1;
  c->mismatch_at = -1;
  if (l->head_only || (c->status >= 100 && c->status < 200) || c->status == 204 || c->status == 304) c->phase = P_BODY, c->remaining = 0;
  else if (chunked) c->phase = P_CHUNK_SIZE, c->line_len = 0, c->remaining = 0, c->chunk_line_bad = 0;
  else if (length >= 0) c->phase = P_BODY, c->remaining = length;
  else c->phase = P_UNTIL_CLOSE, c->closes = 1;
  return 0;
}

// a slice of the body, where it lies in the read buffer
static void body(loop_t *l, conn_t *c, const char *data, size_t n) {
  if (l->exact && c->body_ok) {
    c->body_ok = c->body_bytes + n <= l->expected_len && memcmp(data, l->expected + c->body_bytes, n) == 0;
    // the first slice that differs is kept (a few bytes), only then
    if (!c->body_ok) {
      c->mismatch_at = (int64_t)c->body_bytes;
      c->sample_len = (uint8_t)(n < SAMPLE ? n : SAMPLE);
      memcpy(c->sample, data, c->sample_len);
    }
  }
  c->body_bytes += n;
  c->bytes += n;
}

// the answer framed whole: counted, and the next request sent (or the connection closed, when the answer closes it)
static void answered(loop_t *l, conn_t *c, int64_t now) {
  c->phase = P_HEAD;
  if (c->inflight == 0) return malformed(l, c, "an answer to no request", now);
  int64_t sent = c->sent[c->oldest];
  c->oldest = c->oldest + 1 == l->depth ? 0 : c->oldest + 1;
  c->inflight--;
  c->answers++;
  double *r = record(l, EV_ANSWER, c);
  int ok = c->body_ok && (!l->exact || c->body_bytes == l->expected_len);
  r[2] = c->status;
  r[3] = (double)(now - sent) / 1e3;
  r[4] = (double)c->bytes;
  r[5] = (double)c->body_bytes;
  r[6] = ms_at(l, now);
  r[7] = (ok ? A_BODY_OK : 0) | (c->closes ? A_CLOSES : 0) | (c->answers == 1 ? A_FIRST : 0);
  // the first answer on a connection: from the connection's start to its first byte (the read that ended it)
  if (c->answers == 1) r[8] = (double)(now - c->asked_ns) / 1e6;
  r[9] = (double)c->mismatch_at;
  if (c->mismatch_at >= 0) text_at(l, r, 10, c->sample, c->sample_len);
  if (l->stopped) return;
  if (c->closes || (l->per_conn && c->answers >= l->per_conn)) {
    // the rest of its pipeline goes out again on the connection that replaces it
    if (l->budget >= 0) l->budget += c->inflight;
    c->inflight = 0;
    c->closing = 1;
    return;
  }
  int64_t granted = take(l, room_on(l, c));
  if (granted > 0) send_requests(l, c, (uint32_t)granted, now);
}

// frames what one read brought
static void frame(loop_t *l, conn_t *c, const char *data, size_t n, int64_t now) {
  size_t pos = 0;
  // a failure closes the connection (and may open another in its slot): the rest of the read is no one's
  uint32_t generation = c->generation;
  while (pos < n && c->fd >= 0 && c->generation == generation && !c->closing) {
    switch (c->phase) {
      case P_HEAD: {
        if (c->head_len == 0) {
          const char *end = memmem(data + pos, n - pos, "\r\n\r\n", 4);
          if (end) {
            size_t len = (size_t)(end + 4 - (data + pos));
            if (read_head(l, c, data + pos, len, now) < 0) return;
            pos += len;
            // an answer without a body is whole with its head (the read may end there)
            if (c->phase == P_BODY && c->remaining == 0) answered(l, c, now);
            break;
          }
        }
        // a head split over reads is gathered until its end
        size_t before = c->head_len, more = n - pos;
        if (before + more > MAX_HEAD) return malformed(l, c, "no end of head within 65536 bytes", now);
        c->head = realloc(c->head, before + more);
        memcpy(c->head + before, data + pos, more);
        c->head_len = (uint32_t)(before + more);
        size_t from = before > 3 ? before - 3 : 0;
        const char *end = memmem(c->head + from, c->head_len - from, "\r\n\r\n", 4);
        if (!end) return;
        size_t len = (size_t)(end + 4 - c->head);
        pos += len - before;
        c->head_len = 0;
        if (read_head(l, c, c->head, len, now) < 0) return;
        if (c->phase == P_BODY && c->remaining == 0) answered(l, c, now);
        break;
      }
      case P_BODY:
      case P_CHUNK_DATA: {
        size_t k = (int64_t)(n - pos) < c->remaining ? n - pos : (size_t)c->remaining;
        body(l, c, data + pos, k);
        pos += k;
        c->remaining -= (int64_t)k;
        if (c->remaining == 0) {
          if (c->phase == P_BODY) answered(l, c, now);
          else c->phase = P_CHUNK_CRLF, c->line_len = 0;
        }
        break;
      }
      case P_CHUNK_SIZE: {
        // hex digits, then an extension or nothing, then CRLF
        char ch = data[pos++];
        c->bytes++;
        if (ch == '\n') {
          if (c->line_len == 0 || c->chunk_line_bad) return malformed(l, c, "chunk size not a hexadecimal number", now);
          c->phase = c->remaining == 0 ? P_TRAILER : P_CHUNK_DATA;
          c->line_len = 0;
        } else if (ch == '\r' || ch == ';' || c->line_len >= 1000) {
          if (ch == ';') c->line_len = 1000;
        } else {
          int digit = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
          if (digit < 0 || c->remaining > (INT64_MAX >> 5)) c->chunk_line_bad = 1;
          else c->remaining = c->remaining * 16 + digit, c->line_len++;
        }
        break;
      }
      case P_CHUNK_CRLF: {
        char ch = data[pos++];
        c->bytes++;
        if (ch == '\n') c->phase = P_CHUNK_SIZE, c->line_len = 0, c->remaining = 0, c->chunk_line_bad = 0;
        else if (ch != '\r' || c->line_len++ > 0) return malformed(l, c, "chunk data not followed by CRLF", now);
        break;
      }
      case P_TRAILER: {
        char ch = data[pos++];
        c->bytes++;
        if (ch == '\n') {
          if (c->line_len == 0) answered(l, c, now);
          c->line_len = 0;
        } else if (ch != '\r') c->line_len++;
        break;
      }
      case P_UNTIL_CLOSE:
        body(l, c, data + pos, n - pos);
        pos = n;
        break;
    }
  }
}

static void readable(loop_t *l, conn_t *c, int64_t now) {
  uint32_t generation = c->generation;
  for (;;) {
    ssize_t n = read(c->fd, l->read_buffer, sizeof l->read_buffer);
    if (n > 0) {
      frame(l, c, l->read_buffer, (size_t)n, now);
      // failed while framing (and perhaps opening again in its slot)
      if (c->fd < 0 || c->generation != generation) return;
      if (c->closing) return ended(l, c, 0, now);
      // a full read may have more behind it: read on while the records keep room for the rest of the batch's
      // events (epoll tells this one again)
      if ((size_t)n < sizeof l->read_buffer || l->records_len + l->room + 2 * l->depth + 8 > l->records_cap) return;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n < 0) return fail_errno(l, c, "read", errno, now);
    // the server closed: an answer framed by the close is complete now; one cut short failed
    if (c->phase == P_UNTIL_CLOSE) {
      answered(l, c, now);
      return ended(l, c, 0, now);
    }
    if (c->phase != P_HEAD || c->head_len > 0) return malformed(l, c, "the connection closed in the middle of an answer", now);
    if (c->inflight > 0) return fail(l, c, F_RECEIVE, "the server closed the connection with requests unanswered", now);
    return ended(l, c, 0, now);
  }
}

// fails requests (and connects) older than --timeout
static void sweep(loop_t *l, int64_t now) {
  char text[64];
  snprintf(text, sizeof text, "no answer within %g s", (double)l->timeout_ns / 1e9);
  for (int i = 0; i < l->count && l->records_len + 2 < l->records_cap; i++) {
    conn_t *c = &l->conns[i];
    if (c->fd < 0) continue;
    if (c->connected ? c->inflight > 0 && now - c->sent[c->oldest] > l->timeout_ns : now - c->asked_ns > l->timeout_ns)
      fail(l, c, c->connected ? F_TIMEOUT : F_CONNECT, text, now);
  }
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  loop_t *l = data;
  for (int i = 0; i < l->count; i++) {
    close_fd(l, &l->conns[i]);
    free(l->conns[i].sent);
  }
  if (l->ep >= 0) close(l->ep);
  napi_delete_reference(env, l->records_ref);
  napi_delete_reference(env, l->text_ref);
  free(l->conns);
  free(l->requests);
  free(l->expected);
  free(l);
}

static int64_t int_of(napi_env env, napi_value object, const char *name) {
  napi_value v;
  double d = 0;
  napi_get_named_property(env, object, name, &v);
  napi_get_value_double(env, v, &d);
  return (int64_t)d;
}

static size_t bytes_of(napi_env env, napi_value object, const char *name, char **copy) {
  napi_value v;
  void *data;
  size_t len = 0;
  bool is_buffer = false;
  napi_get_named_property(env, object, name, &v);
  napi_is_buffer(env, v, &is_buffer);
  *copy = NULL;
  if (!is_buffer) return 0;
  napi_get_buffer_info(env, v, &data, &len);
  *copy = malloc(len ? len : 1);
  memcpy(*copy, data, len);
  return len;
}

// open({ address, port, request, expected?, headOnly, connections, depth, perConnection, timeoutMs, budget, nowMs, records, text })
static napi_value open_loop(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value o;
  napi_get_cb_info(env, info, &argc, &o, NULL, NULL);
  loop_t *l = calloc(1, sizeof *l);
  char address[64] = {0};
  napi_value v;
  size_t len;
  napi_get_named_property(env, o, "address", &v);
  napi_get_value_string_latin1(env, v, address, sizeof address, &len);
  l->addr.sin_family = AF_INET;
  l->addr.sin_port = htons((uint16_t)int_of(env, o, "port"));
  if (inet_pton(AF_INET, address, &l->addr.sin_addr) != 1) {
    free(l);
    napi_throw_error(env, NULL, "the native loop takes an IPv4 address");
    return NULL;
  }
  char *request;
  l->request_len = bytes_of(env, o, "request", &request);
  l->depth = (uint32_t)int_of(env, o, "depth");
  l->requests = malloc(l->request_len * l->depth);
  for (uint32_t i = 0; i < l->depth; i++) memcpy(l->requests + i * l->request_len, request, l->request_len);
  free(request);
  l->expected_len = bytes_of(env, o, "expected", &l->expected);
  l->exact = l->expected != NULL;
  l->head_only = int_of(env, o, "headOnly") != 0;
  l->count = (int)int_of(env, o, "connections");
  l->timeout_ns = int_of(env, o, "timeoutMs") * 1000000LL;
  l->budget = int_of(env, o, "budget");
  l->per_conn = (uint32_t)int_of(env, o, "perConnection");
  napi_get_named_property(env, o, "nowMs", &v);
  double now_ms;
  napi_get_value_double(env, v, &now_ms);
  int64_t now = now_ns();
  l->origin_ns = now - (int64_t)(now_ms * 1e6);
  l->last_sweep_ns = now;
  napi_value records, text;
  napi_typedarray_type type;
  void *data;
  size_t length;
  napi_get_named_property(env, o, "records", &records);
  napi_get_typedarray_info(env, records, &type, &length, &data, NULL, NULL);
  l->records = data;
  l->records_cap = length / RECORD;
  l->room = BATCH * (2 * (size_t)l->depth + 8);
  if (l->room + 4096 > l->records_cap) {
    free(l->requests);
    free(l->expected);
    free(l);
    napi_throw_error(env, NULL, "the native loop needs room for 4,096 records beyond a batch's");
    return NULL;
  }
  napi_create_reference(env, records, 1, &l->records_ref);
  napi_get_named_property(env, o, "text", &text);
  napi_get_buffer_info(env, text, &data, &length);
  l->text = data;
  l->text_cap = length;
  napi_create_reference(env, text, 1, &l->text_ref);
  l->ep = epoll_create1(EPOLL_CLOEXEC);
  l->conns = calloc((size_t)l->count, sizeof(conn_t));
  for (int i = 0; i < l->count; i++) {
    l->conns[i].slot = i;
    l->conns[i].fd = -1;
    l->conns[i].sent = calloc(l->depth, sizeof(int64_t));
  }
  napi_value handle;
  napi_create_external(env, l, finalize, NULL, &handle);
  return handle;
}

static loop_t *loop_of(napi_env env, napi_callback_info info, napi_value *argv, size_t want) {
  size_t argc = want;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  void *l = NULL;
  napi_get_value_external(env, argv[0], &l);
  return l;
}

// pump(loop, sliceMs): runs the loop for up to sliceMs (less when the records fill), returns how many it wrote; -1 when
// a -n run is over (its budget spent and nothing in flight)
static napi_value pump(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  loop_t *l = loop_of(env, info, argv, 2);
  double slice_ms;
  napi_get_value_double(env, argv[1], &slice_ms);
  l->records_len = 0;
  l->text_len = 0;
  int64_t now = now_ns(), until = now + (int64_t)(slice_ms * 1e6);
  struct epoll_event events[BATCH];
  int over = 0;
  for (; l->unopened < l->count && l->records_len + 4 < l->records_cap; l->unopened++) {
    l->opening++;
    start_connect(l, &l->conns[l->unopened], now);
  }
  while (!l->stopped && l->records_len + l->room < l->records_cap) {
    // rounded up: a wait of 0 for the slice's last fraction of a millisecond would spin
    int wait = (int)((until - now + 999999) / 1000000);
    int n = epoll_wait(l->ep, events, BATCH, wait > 0 ? wait : 0);
    now = now_ns();
    for (int i = 0; i < n; i++) {
      conn_t *c = &l->conns[(uint32_t)events[i].data.u64];
      // an event of a connection closed since the batch was read (its slot may hold a new one)
      if (c->fd < 0 || c->generation != (uint32_t)(events[i].data.u64 >> 32)) continue;
      uint32_t e = events[i].events;
      if (!c->connected) {
        if (e & (EPOLLOUT | EPOLLERR | EPOLLHUP)) connected(l, c, now);
        continue;
      }
      if (e & EPOLLOUT && c->want_out && flush(l, c, now) < 0) continue;
      if (e & (EPOLLIN | EPOLLERR | EPOLLHUP | EPOLLRDHUP)) readable(l, c, now);
    }
    for (int i = 0; i < l->count && l->waiting > 0 && l->records_len + 4 < l->records_cap; i++) {
      conn_t *c = &l->conns[i];
      if (c->fd < 0 && c->reopen_at > 0 && c->reopen_at <= now) l->waiting--, start_connect(l, c, now);
    }
    if (now - l->last_sweep_ns > 50000000LL) {
      l->last_sweep_ns = now;
      sweep(l, now);
    }
    if (l->budget == 0) {
      int busy = 0;
      for (int i = 0; i < l->count && !busy; i++) busy = l->conns[i].fd >= 0 && l->conns[i].inflight > 0;
      if (!busy) {
        over = 1;
        break;
      }
    }
    if (now >= until) break;
  }
  napi_value out;
  napi_create_int32(env, over ? -1 - (int32_t)l->records_len : (int32_t)l->records_len, &out);
  return out;
}

// stop(loop): closes every connection (requests in flight are not counted: the period is over)
static napi_value stop(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  loop_t *l = loop_of(env, info, argv, 1);
  l->stopped = 1;
  for (int i = 0; i < l->count; i++) close_fd(l, &l->conns[i]);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor properties[] = {
      {"open", NULL, open_loop, NULL, NULL, NULL, napi_enumerable, NULL},
      {"pump", NULL, pump, NULL, NULL, NULL, napi_enumerable, NULL},
      {"stop", NULL, stop, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, 3, properties);
  return exports;
}
