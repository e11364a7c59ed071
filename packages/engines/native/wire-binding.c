// The wire engine's native core as Node sees it (Node-API): open() makes a loop from the run's request, connections and
// records (a closed loop, or the open loop when it gives a rate), pump() runs it for a slice of a few milliseconds and
// returns how many records the slice wrote into the shared Float64Array (connects, answers, failures, which JavaScript
// counts), stop() ends it; frame() holds the framer to the js core's cases in tests. Built on the loop (wire-loop.h) and
// the open loop (open-loop.h); nothing below calls into it.
#include <arpa/inet.h>
#include <node_api.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include "open-loop.h"
#include "wire-loop.h"

// a loop, and the JavaScript buffers its records and text live in, kept alive while it runs
typedef struct {
  loop_t *loop;
  napi_ref records_ref, text_ref;
} binding_t;

static void free_loop(loop_t *l) {
  if (!l) return;
  release_loop(l);
  open_free(l);
  free(l);
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  binding_t *b = data;
  napi_delete_reference(env, b->records_ref);
  napi_delete_reference(env, b->text_ref);
  free_loop(b->loop);
  free(b);
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
  binding_t *b = calloc(1, sizeof *b);
  if (!b) return refuse(env, l, "the native loop could not allocate its handle");
  b->loop = l;
  if (napi_create_reference(env, records, 1, &b->records_ref) != napi_ok) {
    free(b);
    return refuse(env, l, "open() could not keep records");
  }
  if (napi_create_reference(env, text, 1, &b->text_ref) != napi_ok) {
    napi_delete_reference(env, b->records_ref);
    free(b);
    return refuse(env, l, "open() could not keep text");
  }
  if (napi_create_external(env, b, finalize, NULL, &handle) != napi_ok) {
    finalize(env, b, NULL);
    napi_throw_error(env, NULL, "open() could not make its handle");
    return NULL;
  }
  return handle;
}

static loop_t *loop_of(napi_env env, napi_callback_info info, napi_value *argv, size_t want) {
  size_t argc = want;
  void *b = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < want ||
      napi_get_value_external(env, argv[0], &b) != napi_ok || !b) {
    napi_throw_type_error(env, NULL, "the native loop's handle was expected");
    return NULL;
  }
  return ((binding_t *)b)->loop;
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
  int64_t slice_ns = (int64_t)(slice_ms * 1e6);
  return pumped(env, l, l->open ? open_pump(l, slice_ns) : closed_pump(l, slice_ns));
}

// stop(loop): closes every connection (requests in flight are not counted: the period is over); returns { lost: the
// events lost for want of room in the records (0, unless bench has a bug), unsent: the open loop's requests of the
// period never sent (dropped: no connection was free for them, or the run was stopped before they fell due) }
static napi_value stop(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  loop_t *l = loop_of(env, info, argv, 1);
  if (!l) return NULL;
  l->stopped = 1;
  close_connections(l);
  napi_value out, lost, unsent;
  if (napi_create_object(env, &out) != napi_ok || napi_create_double(env, l->lost, &lost) != napi_ok ||
      napi_create_double(env, (double)open_unsent(l), &unsent) != napi_ok ||
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
