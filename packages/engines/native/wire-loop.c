// The wire engine's native loops (Linux), with no call into JavaScript per read: the closed loop (-c keep-alive
// connections on one epoll set, each sending the run's request again as its answer is framed) and the open loop of
// --rate (requests due on a schedule, sent on ticks on whichever connection is free: open-loop.c). JavaScript calls
// pump() for a slice of a few milliseconds and then counts the slice's events (connects, answers, failures) from a
// shared Float64Array. Answers are framed by http-framer.c. Built by scripts/build-native.mjs with the system's C
// compiler; without it the engine runs its JavaScript loops.
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

#include "wire-loop.h"

int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}
static double ms_at(loop_t *l, int64_t ns) { return (double)(ns - l->origin_ns) / 1e6; }

static double *record(loop_t *l, int kind, conn_t *c) {
  double *r = l->scratch;
  if (l->records_len < l->records_cap) r = l->records + l->records_len++ * RECORD;
  else l->lost++;
  memset(r, 0, sizeof(double) * RECORD);
  r[0] = kind;
  r[1] = c->slot;
  return r;
}

// a message for a failure, kept in the text buffer (cut short when it is full): its offset and length go in the record
static void text_at(loop_t *l, double *r, int at, const char *text, size_t n) {
  size_t room = l->text_cap - l->text_len;
  if (n > room) n = room;
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

static void close_fd(loop_t *l, conn_t *c) {
  if (c->fd < 0) return;
  epoll_ctl(l->ep, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
  c->fd = -1;
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
  if (l->open) return open_ended(l, c, refused, now);
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
static const char *errno_name(int err, char *other, size_t other_len) {
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
    case EAFNOSUPPORT: return "EAFNOSUPPORT";
    default: snprintf(other, other_len, "E%d", err); return other;
  }
}

// a failed system call, sorted into ab's buckets as the engine's classifyError sorts Node's error codes
static void fail_errno(loop_t *l, conn_t *c, const char *what, int err, int64_t now) {
  char text[96], other[16];
  snprintf(text, sizeof text, "%s %s", what, errno_name(err, other, sizeof other));
  int connect_code = err == ECONNREFUSED || err == EADDRNOTAVAIL || err == EHOSTUNREACH || err == ENETUNREACH || err == EMFILE ||
                     err == ENFILE || err == ETIMEDOUT;
  int receive_code = err == ECONNRESET || err == EPIPE || err == ECONNABORTED;
  // an idle connection reset (the open loop's, between requests due) lost no request: it only ends, as on the js core
  if (c->connected && c->inflight == 0 && c->unsent == 0) return ended(l, c, 0, now);
  fail(l, c, !c->connected || connect_code ? F_CONNECT : receive_code ? F_RECEIVE : F_EXCEPTIONS, text, now);
}

static void malformed(loop_t *l, conn_t *c, const char *what, int64_t now) {
  char text[200];
  snprintf(text, sizeof text, "malformed answer: %s", what);
  fail(l, c, F_EXCEPTIONS, text, now);
}

static void cut_short(loop_t *l, conn_t *c, const char *what, int64_t now) {
  char text[200];
  snprintf(text, sizeof text, "malformed answer: %s", what);
  fail(l, c, F_RECEIVE, text, now);
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

void send_requests(loop_t *l, conn_t *c, uint32_t count, int64_t now) {
  for (uint32_t i = 0; i < count; i++) {
    uint32_t ring = c->oldest + c->inflight++;
    c->sent[ring < l->depth ? ring : ring - l->depth] = now;
  }
  c->unsent += count;
  if (!c->want_out) flush(l, c, now);
}

// requests the connection may still put in flight: its pipeline's depth, within what its answers' limit leaves
uint32_t room_on(const loop_t *l, const conn_t *c) {
  uint32_t cap = l->depth;
  if (l->per_conn && l->per_conn - c->answers < cap) cap = l->per_conn - c->answers;
  return cap > c->inflight ? cap - c->inflight : 0;
}

void start_connect(loop_t *l, conn_t *c, int64_t now) {
  c->reopen_at = 0;
  c->generation++;
  c->connected = 0;
  c->closing = 0;
  c->answers = 0;
  c->inflight = c->unsent = 0;
  c->oldest = 0;
  c->written = 0;
  c->want_out = 0;
  framer_reset(&c->framer);
  c->asked_ns = now;
  c->fd = socket(l->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (c->fd < 0) {
    c->fd = -1;
    char text[64], other[16];
    snprintf(text, sizeof text, "connect %s", errno_name(errno, other, sizeof other));
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
  // the open loop reads on ticks, and times each answer from its arrival stamp; a socket that refuses stamps is timed
  // from its reads (open_arrival)
  if (l->open) (void)arrival_stamps_on(c->fd);
  int status = connect(c->fd, (struct sockaddr *)&l->addr, l->addr_len);
  watch(l, c, EPOLL_CTL_ADD);
  if (status < 0 && errno != EINPROGRESS) fail_errno(l, c, "connect", errno, now);
}

static void connected(loop_t *l, conn_t *c, int64_t now) {
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
  if (err) return fail_errno(l, c, "connect", err, now);
  c->connected = 1;
  l->opening--;
  double *r = record(l, EV_CONNECTED, c);
  r[2] = (double)(now - c->asked_ns) / 1e6;
  r[6] = ms_at(l, now);
  watch(l, c, EPOLL_CTL_MOD);
  if (l->open) return open_connected(l, c);
  if (!l->stopped) {
    int64_t granted = take(l, room_on(l, c));
    if (granted > 0) send_requests(l, c, (uint32_t)granted, now);
  }
}

// the answer the framer made whole, arrived at `now`: counted, and the next request sent (or the connection closed, when
// it closes it); in the open loop the connection is free for the next request due
static void answered(loop_t *l, conn_t *c, int64_t now) {
  const http_framer *f = &c->framer;
  int64_t sent = c->sent[c->oldest];
  // the open loop's latency counts from when the request was due (coordinated omission corrected)
  int64_t due = l->open ? c->due[c->oldest] : sent;
  c->oldest = c->oldest + 1 == l->depth ? 0 : c->oldest + 1;
  c->inflight--;
  c->answers++;
  double *r = record(l, EV_ANSWER, c);
  r[2] = f->status;
  r[3] = (double)(now - due) / 1e3;
  r[4] = (double)f->bytes;
  r[5] = (double)f->body_bytes;
  r[6] = ms_at(l, now);
  r[7] = (f->body_ok ? A_BODY_OK : 0) | (f->closes ? A_CLOSES : 0) | (c->answers == 1 ? A_FIRST : 0);
  // the first answer on a connection: from the connection's start to its first byte (the read that ended it)
  if (c->answers == 1) r[8] = (double)(now - c->asked_ns) / 1e6;
  r[9] = f->body_ok ? -1 : (double)f->mismatch_at;
  if (!f->body_ok && f->mismatch_at >= 0) text_at(l, r, 10, (const char *)f->sample, f->sample_len);
  r[12] = (double)(now - sent) / 1e3;
  if (l->stopped) return;
  if (f->closes || (l->per_conn && c->answers >= l->per_conn)) {
    c->closing = 1;
    // the closed loop sends the rest of its pipeline again on the connection that replaces it; the open loop's have
    // their due times gone by, and fail with the connection
    if (l->open) return;
    if (l->budget >= 0) l->budget += c->inflight;
    c->inflight = 0;
    return;
  }
  if (l->open) return open_answered(l, c);
  int64_t granted = take(l, room_on(l, c));
  if (granted > 0) send_requests(l, c, (uint32_t)granted, now);
}

// frames what one read brought. Its answers can only be to the requests in flight when it was read: one beyond them
// answers no request (a server answering twice, or a proxy out of step), and fails the connection.
static void frame(loop_t *l, conn_t *c, const uint8_t *data, size_t n, int64_t now) {
  uint32_t answerable = c->inflight;
  uint32_t generation = c->generation;
  size_t pos = 0;
  while (pos < n) {
    size_t used = 0;
    framer_status status = framer_feed(&c->framer, &l->framing, data + pos, n - pos, &used);
    pos += used;
    if (status == FRAMER_MORE) return;
    if (status == FRAMER_ERROR) return malformed(l, c, c->framer.error, now);
    if (answerable == 0) return malformed(l, c, "an answer to no request", now);
    answerable--;
    answered(l, c, now);
    // failed while sending, or closing: the rest of the read is no one's
    if (c->fd < 0 || c->generation != generation || c->closing) return;
  }
}

// a connection whose last answer closed it: ended, or failed with the open loop's requests still in flight behind it
static void closed_after(loop_t *l, conn_t *c, int64_t now) {
  if (c->inflight > 0) return fail(l, c, F_RECEIVE, "the server closed the connection with requests unanswered", now);
  ended(l, c, 0, now);
}

// reads what a connection has. The closed loop reads as soon as epoll tells, and times answers from the read; the open
// loop may read a tick later, and times them from when they arrived.
static void readable(loop_t *l, conn_t *c, int64_t now) {
  uint32_t generation = c->generation;
  for (;;) {
    int64_t stamp = 0;
    ssize_t n = l->open ? arrival_read(c->fd, l->read_buffer, sizeof l->read_buffer, &l->open->control, l->open->clock_offset, &stamp)
                        : read(c->fd, l->read_buffer, sizeof l->read_buffer);
    if (n > 0) {
      frame(l, c, l->read_buffer, (size_t)n, l->open ? open_arrival(c, stamp, now) : now);
      // failed while framing (and perhaps opening again in its slot)
      if (c->fd < 0 || c->generation != generation) return;
      if (c->closing) return closed_after(l, c, now);
      // a full read may have more behind it: read on while the records keep room for the rest of the batch's
      // events (epoll tells this one again)
      if ((size_t)n < sizeof l->read_buffer || l->records_len + l->room + 2 * l->depth + 8 > l->records_cap) return;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n < 0) return fail_errno(l, c, "read", errno, now);
    // the server closed: an answer framed by the close is whole now; one cut short failed
    framer_status status = framer_close(&c->framer, &l->framing);
    // an answer cut short by the close is a failed receive, as on the js core (a malformed one failed as it was read)
    if (status == FRAMER_ERROR) return cut_short(l, c, c->framer.error, now);
    if (status == FRAMER_ANSWER) {
      if (c->inflight == 0) return malformed(l, c, "an answer to no request", now);
      answered(l, c, now);
      return closed_after(l, c, now);
    }
    if (c->inflight > 0) return fail(l, c, F_RECEIVE, "the server closed the connection with requests unanswered", now);
    return ended(l, c, 0, now);
  }
}

void handle_events(loop_t *l, const struct epoll_event *events, int n, int64_t now) {
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
}

// the connections whose wait after a refused connect is over: opened again (the open loop frees their slots instead)
void reopen_waiting(loop_t *l, int64_t now) {
  for (int i = 0; i < l->count && l->waiting > 0 && l->records_len + 4 < l->records_cap; i++) {
    conn_t *c = &l->conns[i];
    if (c->fd >= 0 || c->reopen_at == 0 || c->reopen_at > now) continue;
    l->waiting--;
    if (l->open) open_slot_free(l, c);
    else start_connect(l, c, now);
  }
}

int any_in_flight(const loop_t *l) {
  for (int i = 0; i < l->count; i++)
    if (l->conns[i].fd >= 0 && l->conns[i].inflight > 0) return 1;
  return 0;
}

// fails requests (and connects) older than --timeout, every 50 ms
void sweep(loop_t *l, int64_t now) {
  if (now - l->last_sweep_ns <= 50000000LL) return;
  l->last_sweep_ns = now;
  char text[64];
  snprintf(text, sizeof text, "no answer within %g s", (double)l->timeout_ns / 1e9);
  for (int i = 0; i < l->count && l->records_len + 2 < l->records_cap; i++) {
    conn_t *c = &l->conns[i];
    if (c->fd < 0) continue;
    if (c->connected ? c->inflight > 0 && now - c->sent[c->oldest] > l->timeout_ns : now - c->asked_ns > l->timeout_ns)
      fail(l, c, c->connected ? F_TIMEOUT : F_CONNECT, text, now);
  }
}

static void free_loop(loop_t *l) {
  if (!l) return;
  if (l->conns) {
    for (int i = 0; i < l->count; i++) {
      close_fd(l, &l->conns[i]);
      free(l->conns[i].sent);
      free(l->conns[i].due);
    }
  }
  open_free(l);
  if (l->ep >= 0) close(l->ep);
  free(l->conns);
  free(l->requests);
  free(l->expected);
  free(l);
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  loop_t *l = data;
  napi_delete_reference(env, l->records_ref);
  napi_delete_reference(env, l->text_ref);
  free_loop(l);
}

// a number property of `object`; 0 when it has none
static int64_t int_of(napi_env env, napi_value object, const char *name) {
  napi_value v;
  double d = 0;
  if (napi_get_named_property(env, object, name, &v) != napi_ok || napi_get_value_double(env, v, &d) != napi_ok) return 0;
  // past 2^53 (or NaN) a double is no whole count, and past int64's range the cast is undefined: read as 0, refused by the caller
  if (!(d >= -9007199254740992.0 && d <= 9007199254740992.0)) return 0;
  return (int64_t)d;
}

// a copy of the bytes of a Buffer property of `object` (NULL and 0 when it holds none); -1 when the copy could not be made
static int bytes_of(napi_env env, napi_value object, const char *name, uint8_t **copy, size_t *len) {
  napi_value v;
  void *data = NULL;
  bool is_buffer = false;
  *copy = NULL;
  *len = 0;
  if (napi_get_named_property(env, object, name, &v) != napi_ok || napi_is_buffer(env, v, &is_buffer) != napi_ok || !is_buffer) return 0;
  if (napi_get_buffer_info(env, v, &data, len) != napi_ok) return -1;
  *copy = malloc(*len ? *len : 1);
  if (!*copy) return -1;
  if (*len) memcpy(*copy, data, *len);
  return 0;
}

static napi_value refuse(napi_env env, loop_t *l, const char *why) {
  free_loop(l);
  napi_throw_error(env, NULL, why);
  return NULL;
}

// the address to connect to: a numeric IPv4 or IPv6 address (JavaScript resolved any host name before)
static int address_of(napi_env env, napi_value o, loop_t *l) {
  char address[64] = {0};
  size_t len = 0;
  napi_value v;
  if (napi_get_named_property(env, o, "address", &v) != napi_ok ||
      napi_get_value_string_latin1(env, v, address, sizeof address, &len) != napi_ok)
    return -1;
  uint16_t port = htons((uint16_t)int_of(env, o, "port"));
  memset(&l->addr, 0, sizeof l->addr);
  if (int_of(env, o, "family") == 6) {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)&l->addr;
    a->sin6_family = AF_INET6;
    a->sin6_port = port;
    l->addr_len = sizeof *a;
    return inet_pton(AF_INET6, address, &a->sin6_addr) == 1 ? 0 : -1;
  }
  struct sockaddr_in *a = (struct sockaddr_in *)&l->addr;
  a->sin_family = AF_INET;
  a->sin_port = port;
  l->addr_len = sizeof *a;
  return inet_pton(AF_INET, address, &a->sin_addr) == 1 ? 0 : -1;
}

// a number property of `object`, or `otherwise` when it has none
static double number_of(napi_env env, napi_value object, const char *name, double otherwise) {
  napi_value v;
  double d = otherwise;
  if (napi_get_named_property(env, object, name, &v) != napi_ok || napi_get_value_double(env, v, &d) != napi_ok) return otherwise;
  return d;
}

// open({ address, family, port, request, expected?, headOnly, connections, depth, perConnection, timeoutMs, budget,
// nowMs, records, text, rate? }): the closed loop, or the open loop when `rate` gives its schedule ({ runRate,
// threadIndex, threadCount, due, startMs, periodMs }: arrival-schedule.ts's, startMs on performance.now()'s clock)
static napi_value open_loop(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value o;
  if (napi_get_cb_info(env, info, &argc, &o, NULL, NULL) != napi_ok || argc < 1) return refuse(env, NULL, "open() takes one object");
  loop_t *l = calloc(1, sizeof *l);
  if (!l) return refuse(env, NULL, "the native loop could not allocate its state");
  l->ep = -1;
  if (address_of(env, o, l) < 0) return refuse(env, l, "the native loop takes a numeric IPv4 or IPv6 address");
  uint8_t *request;
  if (bytes_of(env, o, "request", &request, &l->request_len) < 0) return refuse(env, l, "the native loop could not copy the request");
  int64_t depth = int_of(env, o, "depth"), count = int_of(env, o, "connections");
  if (depth < 1 || depth > 65536 || count < 1 || count > 1000000 || l->request_len == 0) {
    free(request);
    return refuse(env, l, "the native loop takes 1 to 65,536 requests in flight on 1 to 1,000,000 connections, and a request");
  }
  l->depth = (uint32_t)depth;
  l->count = (int)count;
  if (l->request_len > SIZE_MAX / l->depth || !(l->requests = malloc(l->request_len * l->depth))) {
    free(request);
    return refuse(env, l, "the native loop could not allocate its pipeline of requests");
  }
  for (uint32_t i = 0; i < l->depth; i++) memcpy(l->requests + i * l->request_len, request, l->request_len);
  free(request);
  size_t expected_len;
  if (bytes_of(env, o, "expected", &l->expected, &expected_len) < 0) return refuse(env, l, "the native loop could not copy the expected body");
  l->framing.expected = l->expected;
  l->framing.expected_len = expected_len;
  l->framing.head_only = int_of(env, o, "headOnly") != 0;
  // a day at most: in nanoseconds far from int64's end (bench's --timeout stops at an hour)
  int64_t timeout_ms = int_of(env, o, "timeoutMs");
  if (timeout_ms < 1 || timeout_ms > 86400000LL) return refuse(env, l, "the native loop takes a timeout of 1 ms to a day");
  l->timeout_ns = timeout_ms * 1000000LL;
  l->budget = int_of(env, o, "budget");
  l->per_conn = (uint32_t)int_of(env, o, "perConnection");
  napi_value v;
  double now_ms = 0;
  if (napi_get_named_property(env, o, "nowMs", &v) != napi_ok || napi_get_value_double(env, v, &now_ms) != napi_ok)
    return refuse(env, l, "open() needs nowMs");
  int64_t now = now_ns();
  l->origin_ns = now - (int64_t)(now_ms * 1e6);
  l->last_sweep_ns = now;
  napi_value records, text;
  napi_typedarray_type type;
  void *data = NULL;
  size_t length = 0;
  if (napi_get_named_property(env, o, "records", &records) != napi_ok ||
      napi_get_typedarray_info(env, records, &type, &length, &data, NULL, NULL) != napi_ok || type != napi_float64_array)
    return refuse(env, l, "open() needs records, a Float64Array");
  l->records = data;
  l->records_cap = length / RECORD;
  l->room = BATCH * (2 * (size_t)l->depth + 8);
  if (l->room + 4096 > l->records_cap) return refuse(env, l, "the native loop needs room for 4,096 records beyond a batch's");
  if (napi_get_named_property(env, o, "text", &text) != napi_ok || napi_get_buffer_info(env, text, &data, &length) != napi_ok)
    return refuse(env, l, "open() needs text, a Buffer");
  l->text = data;
  l->text_cap = length;
  l->ep = epoll_create1(EPOLL_CLOEXEC);
  if (l->ep < 0) return refuse(env, l, "the native loop could not create its epoll set");
  l->conns = calloc((size_t)l->count, sizeof(conn_t));
  if (!l->conns) return refuse(env, l, "the native loop could not allocate its connections");
  for (int i = 0; i < l->count; i++) l->conns[i].slot = i, l->conns[i].fd = -1;
  for (int i = 0; i < l->count; i++)
    if (!(l->conns[i].sent = calloc(l->depth, sizeof(int64_t)))) return refuse(env, l, "the native loop could not allocate its connections");
  napi_value rate;
  napi_valuetype rate_type = napi_undefined;
  if (napi_get_named_property(env, o, "rate", &rate) != napi_ok || napi_typeof(env, rate, &rate_type) != napi_ok)
    return refuse(env, l, "open() could not read rate");
  if (rate_type == napi_object) {
    double run_rate = number_of(env, rate, "runRate", 0), threads = number_of(env, rate, "threadCount", 0);
    double index = number_of(env, rate, "threadIndex", -1), due = number_of(env, rate, "due", -1);
    double start_ms = number_of(env, rate, "startMs", -1), period_ms = number_of(env, rate, "periodMs", 0);
    // counts up to 2^53, exact in a double and an int64; a period up to a year
    if (!(run_rate > 0 && run_rate < 1e12) || !(threads >= 1 && threads <= 65536) || !(index >= 0 && index < threads) ||
        !(due >= 0 && due <= 9007199254740991.0) || !(start_ms >= 0 && start_ms < 1e15) || !(period_ms > 0 && period_ms <= 3.2e10))
      return refuse(env, l, "the native loop's rate takes runRate > 0, 0 <= threadIndex < threadCount, due >= 0, startMs and periodMs");
    for (int i = 0; i < l->count; i++)
      if (!(l->conns[i].due = calloc(l->depth, sizeof(int64_t)))) return refuse(env, l, "the native loop could not allocate its connections");
    if (open_setup(l, run_rate, (int64_t)index, (int64_t)threads, (int64_t)due, start_ms, period_ms) < 0)
      return refuse(env, l, "the native loop could not allocate its open loop");
  } else if (rate_type != napi_undefined)
    return refuse(env, l, "open() takes rate as an object");
  napi_value handle;
  if (napi_create_reference(env, records, 1, &l->records_ref) != napi_ok) return refuse(env, l, "open() could not keep records");
  if (napi_create_reference(env, text, 1, &l->text_ref) != napi_ok) {
    napi_delete_reference(env, l->records_ref);
    return refuse(env, l, "open() could not keep text");
  }
  if (napi_create_external(env, l, finalize, NULL, &handle) != napi_ok) {
    finalize(env, l, NULL);
    napi_throw_error(env, NULL, "open() could not make its handle");
    return NULL;
  }
  return handle;
}

static loop_t *loop_of(napi_env env, napi_callback_info info, napi_value *argv, size_t want) {
  size_t argc = want;
  void *l = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < want ||
      napi_get_value_external(env, argv[0], &l) != napi_ok || !l) {
    napi_throw_type_error(env, NULL, "the native loop's handle was expected");
    return NULL;
  }
  return l;
}

// what pump() returns: the records written, or -1 - that count once the run is over
static napi_value pumped(napi_env env, const loop_t *l, int over) {
  napi_value out;
  if (napi_create_int32(env, over ? -1 - (int32_t)l->records_len : (int32_t)l->records_len, &out) != napi_ok) {
    napi_throw_error(env, NULL, "pump() could not make its answer");
    return NULL;
  }
  return out;
}

// pump(loop, sliceMs): runs the loop for up to sliceMs (less when the records fill), returns how many it wrote; -1 - that
// count when the run is over: a -n run's budget spent, or an open loop's period, with nothing in flight
static napi_value pump(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  loop_t *l = loop_of(env, info, argv, 2);
  if (!l) return NULL;
  double slice_ms = 0;
  if (napi_get_value_double(env, argv[1], &slice_ms) != napi_ok || !(slice_ms >= 0 && slice_ms <= 60000)) {
    napi_throw_type_error(env, NULL, "pump() takes a slice of 0 to 60,000 ms");
    return NULL;
  }
  l->records_len = 0;
  l->text_len = 0;
  if (l->open) return pumped(env, l, open_pump(l, (int64_t)(slice_ms * 1e6)));
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
    handle_events(l, events, n, now);
    reopen_waiting(l, now);
    sweep(l, now);
    if (l->budget == 0 && !any_in_flight(l)) {
      over = 1;
      break;
    }
    if (now >= until) break;
  }
  return pumped(env, l, over);
}

// stop(loop): closes every connection (requests in flight are not counted: the period is over); returns { lost: the
// events lost for want of room in the records (0, unless bench has a bug), unsent: the open loop's requests of the
// period never sent (dropped: no connection was free for them, or the run was stopped before they fell due) }
static napi_value stop(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  loop_t *l = loop_of(env, info, argv, 1);
  if (!l) return NULL;
  l->stopped = 1;
  for (int i = 0; i < l->count; i++) close_fd(l, &l->conns[i]);
  napi_value out, lost, unsent;
  if (napi_create_object(env, &out) != napi_ok || napi_create_double(env, l->lost, &lost) != napi_ok ||
      napi_create_double(env, l->open ? (double)(l->open->due_count - l->open->next_to_send) : 0, &unsent) != napi_ok ||
      napi_set_named_property(env, out, "lost", lost) != napi_ok || napi_set_named_property(env, out, "unsent", unsent) != napi_ok) {
    napi_throw_error(env, NULL, "stop() could not make its answer");
    return NULL;
  }
  return out;
}

// sets a number property; the caller checks the object as a whole
static void set_number(napi_env env, napi_value object, const char *name, double value) {
  napi_value v;
  if (napi_create_double(env, value, &v) == napi_ok) napi_set_named_property(env, object, name, v);
}

// frame(chunks, expected?, headOnly, closeAfter): what the framer makes of these reads on one connection, for the
// tests that hold both cores to the same cases: [{ status, bytes, bodyBytes, bodyOk, closes } | { error }]
static napi_value frame_for_test(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4], out;
  uint32_t chunks = 0;
  bool close_after = false;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4 || napi_get_array_length(env, argv[0], &chunks) != napi_ok ||
      napi_get_value_bool(env, argv[3], &close_after) != napi_ok || napi_create_array(env, &out) != napi_ok) {
    napi_throw_type_error(env, NULL, "frame(chunks, expected, headOnly, closeAfter)");
    return NULL;
  }
  framer_config config = {0};
  bool is_buffer = false;
  void *data = NULL;
  size_t len = 0;
  if (napi_is_buffer(env, argv[1], &is_buffer) == napi_ok && is_buffer && napi_get_buffer_info(env, argv[1], &data, &len) == napi_ok) {
    config.expected = data;
    config.expected_len = len;
  }
  int32_t head_only = 0;
  napi_get_value_int32(env, argv[2], &head_only);
  config.head_only = head_only;
  http_framer *f = malloc(sizeof *f);
  if (!f) {
    napi_throw_error(env, NULL, "frame() could not allocate a framer");
    return NULL;
  }
  framer_reset(f);
  uint32_t results = 0;
  int stopped = 0;
  for (uint32_t i = 0; i <= chunks && !stopped; i++) {
    framer_status status = FRAMER_MORE;
    size_t pos = 0, n = 0, used = 0;
    const uint8_t *bytes = NULL;
    if (i < chunks) {
      napi_value chunk;
      if (napi_get_element(env, argv[0], i, &chunk) != napi_ok || napi_get_buffer_info(env, chunk, &data, &n) != napi_ok) break;
      bytes = data;
    } else if (!close_after)
      break;
    do {
      status = i < chunks ? framer_feed(f, &config, bytes + pos, n - pos, &used) : framer_close(f, &config);
      pos += used;
      if (status == FRAMER_MORE) break;
      napi_value result;
      if (napi_create_object(env, &result) != napi_ok) break;
      if (status == FRAMER_ERROR) {
        napi_value text;
        napi_create_string_utf8(env, f->error, NAPI_AUTO_LENGTH, &text);
        napi_set_named_property(env, result, "error", text);
        stopped = 1;
      } else {
        set_number(env, result, "status", f->status);
        set_number(env, result, "bytes", (double)f->bytes);
        set_number(env, result, "bodyBytes", (double)f->body_bytes);
        napi_value flag;
        napi_get_boolean(env, f->body_ok, &flag);
        napi_set_named_property(env, result, "bodyOk", flag);
        napi_get_boolean(env, f->closes, &flag);
        napi_set_named_property(env, result, "closes", flag);
      }
      napi_set_element(env, out, results++, result);
    } while (!stopped && i < chunks && pos < n);
  }
  free(f);
  return out;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor properties[] = {
      {"open", NULL, open_loop, NULL, NULL, NULL, napi_enumerable, NULL},
      {"pump", NULL, pump, NULL, NULL, NULL, napi_enumerable, NULL},
      {"stop", NULL, stop, NULL, NULL, NULL, napi_enumerable, NULL},
      {"frame", NULL, frame_for_test, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, 4, properties) != napi_ok) return NULL;
  return exports;
}
