// The open loop of --rate on the native core, as the js core's (src/wire/open-loop.ts) and in the same terms: request j
// of this thread falls due on arrival-schedule.ts's schedule whatever the server does; requests due wait (a count, not
// a queue) for a connection with room (its pipeline's depth), new connections opening up to -c when none has; each is
// timed from when it was due (coordinated omission corrected) and from when it went out. Requests still waiting when
// the period ends are dropped and counted; those in flight are answered or time out.
//
// It wakes on ticks, not on each answer (what the client spends is the point): it sleeps to the next due time or the
// next millisecond, whichever is later (the js core's 1 ms timers), then reads every answer that came meanwhile and
// sends every request due; an answer read up to a tick late is timed from the kernel's stamp of its arrival
// (arrival-stamp.h). While requests wait for a connection (the server is behind), it wakes on each event instead.
#define _GNU_SOURCE
#include <stdlib.h>
#include <time.h>

#include <unistd.h>

#include "open-loop.h"

#define TICK_NS 1000000LL

// request j's due time on the loop's clock: arrival-schedule.ts's atMs(j) after the run's start
static int64_t due_ns(const schedule_t *s, int64_t j) {
  return s->start_ns + (int64_t)(((double)j * (double)s->threads + (double)s->index) * 1e9 / s->run_rate);
}

static void open_connected(loop_t *l, conn_t *c);
static void open_answered(loop_t *l, conn_t *c);
static void open_ended(loop_t *l, conn_t *c, int refused, int64_t now);
static void open_slot_free(loop_t *l, conn_t *c);
static ssize_t open_read(loop_t *l, conn_t *c, int64_t now, int64_t *arrived);

static const loop_hooks open_hooks = {
    .connected = open_connected,
    .answered = open_answered,
    .ended = open_ended,
    .slot_free = open_slot_free,
    .read = open_read,
};

int open_setup(loop_t *l, double run_rate, int64_t index, int64_t threads, int64_t due_count, double start_ms, double period_ms) {
  schedule_t *s = calloc(1, sizeof *s);
  if (!s) return -1;
  if (!(s->free_slots = malloc(sizeof(int) * (size_t)l->count))) {
    free(s);
    return -1;
  }
  s->run_rate = run_rate;
  s->index = index;
  s->threads = threads;
  s->due_count = due_count;
  s->start_ns = l->origin_ns + (int64_t)(start_ms * 1e6);
  s->end_ns = s->start_ns + (int64_t)(period_ms * 1e6);
  // slot 0 is taken first
  for (int i = l->count - 1; i >= 0; i--) s->free_slots[s->free_len++] = i;
  s->ready_head = s->ready_tail = -1;
  s->clock_offset = arrival_clock_offset();
  l->open = s;
  l->hooks = &open_hooks;
  // the closed loop's first slices open every connection; the open loop opens them as requests wait
  l->unopened = l->count;
  return 0;
}

void open_free(loop_t *l) {
  if (!l->open) return;
  free(l->open->free_slots);
  free(l->open);
  l->open = NULL;
  l->hooks = NULL;
}

int64_t open_unsent(const loop_t *l) { return l->open ? l->open->due_count - l->open->next_to_send : 0; }

// the connections with room for a request, in the order they got it (as the js core's Set)
static void ready_add(loop_t *l, conn_t *c) {
  schedule_t *s = l->open;
  if (c->ready) return;
  c->ready = 1;
  c->ready_next = -1;
  c->ready_prev = s->ready_tail;
  if (s->ready_tail >= 0) l->conns[s->ready_tail].ready_next = c->slot;
  else s->ready_head = c->slot;
  s->ready_tail = c->slot;
}

static void ready_remove(loop_t *l, conn_t *c) {
  schedule_t *s = l->open;
  if (!c->ready) return;
  c->ready = 0;
  if (c->ready_prev >= 0) l->conns[c->ready_prev].ready_next = c->ready_next;
  else s->ready_head = c->ready_next;
  if (c->ready_next >= 0) l->conns[c->ready_next].ready_prev = c->ready_prev;
  else s->ready_tail = c->ready_prev;
}

static void open_connected(loop_t *l, conn_t *c) {
  if (room_on(l, c) > 0) ready_add(l, c);
}

static void open_answered(loop_t *l, conn_t *c) {
  if (room_on(l, c) > 0) ready_add(l, c);
}

static void open_slot_free(loop_t *l, conn_t *c) {
  schedule_t *s = l->open;
  c->reopen_at = 0;
  // every slot is free, open (live) or waiting after a refusal, one at a time: the stack never holds more than -c
  if (s->free_len < l->count) s->free_slots[s->free_len++] = c->slot;
}

static void open_ended(loop_t *l, conn_t *c, int refused, int64_t now) {
  ready_remove(l, c);
  l->open->live--;
  // a refused slot waits 10 ms before a connection opens in it again, as the closed loop's: not a hot loop of refusals
  if (refused) {
    c->reopen_at = now + RETRY_AFTER_REFUSAL_NS;
    l->waiting++;
  } else
    open_slot_free(l, c);
}

// a read, and when what it read arrived: the kernel's stamp, where it gave one that can be right, else `now`
static ssize_t open_read(loop_t *l, conn_t *c, int64_t now, int64_t *arrived) {
  int64_t stamp = 0;
  ssize_t n = arrival_read(c->fd, l->read_buffer, sizeof l->read_buffer, &l->open->control, l->open->clock_offset, &stamp);
  // an answer arrives after its request left and before it is read: a stamp outside that (none, or one of a realtime
  // clock stepped since the slice began) gives way to the read's time
  *arrived = stamp <= 0 || stamp > now || c->inflight == 0 || stamp < c->sent[c->oldest] ? now : stamp;
  return n;
}

// sends the requests waiting on connections with room, opening more up to -c when none has (open-loop.ts's dispatch)
static void dispatch(loop_t *l) {
  schedule_t *s = l->open;
  // each send leaves room for the records its failure, or a failed connect, writes
  while (s->next_to_send < s->scheduled && !s->closed && l->records_len + 4 < l->records_cap) {
    int64_t waiting = s->scheduled - s->next_to_send;
    if (s->ready_head < 0) {
      // as many new connections as the waiting requests fill (those opening already count), up to -c
      int64_t wanted = (waiting + l->depth - 1) / l->depth - l->opening;
      for (int64_t i = 0; i < wanted && !s->ending && s->free_len > 0 && l->records_len + 4 < l->records_cap; i++) {
        conn_t *c = &l->conns[s->free_slots[--s->free_len]];
        s->live++;
        l->opening++;
        start_connect(l, c, now_ns());
      }
      return;
    }
    conn_t *c = &l->conns[s->ready_head];
    uint32_t room = room_on(l, c);
    uint32_t count = waiting < (int64_t)room ? (uint32_t)waiting : room;
    if (count == room) ready_remove(l, c);
    // their due times in the ring beside their send times (send_requests writes those)
    for (uint32_t i = 0; i < count; i++) {
      uint32_t ring = c->oldest + c->inflight + i;
      c->due[ring % l->depth] = due_ns(s, s->next_to_send++);
    }
    // the clock read at each write: a tick's sends take a while, and each request's time starts at its own
    if (count > 0) send_requests(l, c, count, now_ns());
  }
}

// the next instant the loop wakes at: the next due time or the next millisecond, whichever is later
static int64_t next_tick(const schedule_t *s, int64_t now) {
  int64_t since = now > s->start_ns ? now - s->start_ns : 0;
  int64_t tick = s->start_ns + (since / TICK_NS + 1) * TICK_NS;
  int64_t due = s->scheduled < s->due_count ? due_ns(s, s->scheduled) : s->closed ? tick : s->end_ns;
  return due > tick ? due : tick;
}

static void sleep_until(int64_t at) {
  struct timespec t = {.tv_sec = at / 1000000000LL, .tv_nsec = at % 1000000000LL};
  // a signal ends the sleep early: the loop looks again, and sleeps again if nothing is due
  clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
}

int open_pump(loop_t *l, int64_t slice_ns) {
  schedule_t *s = l->open;
  struct epoll_event events[BATCH];
  int64_t now = now_ns(), until = now + slice_ns;
  // measured again each slice: a realtime clock stepped (by hand, or by NTP) shifts the stamps for one slice at most, and
  // open_arrival gives the read's time to those it shifts outside their request's send and read
  s->clock_offset = arrival_clock_offset();
  int wait_ms = 0;
  while (!l->stopped) {
    // every event that came: the batch the wait ended with, then the rest without waiting, while the records have room
    int n;
    do {
      if (l->records_len + l->room >= l->records_cap) return 0;
      n = epoll_wait(l->ep, events, BATCH, wait_ms);
      wait_ms = 0;
      now = now_ns();
      if (n > 0) handle_events(l, events, n, now);
    } while (n == BATCH);
    reopen_waiting(l, now);
    while (s->scheduled < s->due_count && due_ns(s, s->scheduled) <= now) s->scheduled++;
    dispatch(l);
    // the period ends once its last request fell due and had its chance at a connection: one free, or one opening for it
    // then (none opens after); those still waiting, which no connection of the -c could take, are dropped
    if (!s->closed && now >= s->end_ns && s->scheduled == s->due_count) {
      s->ending = 1;
      if (s->next_to_send == s->scheduled || l->opening == 0) s->closed = 1;
    }
    sweep(l, now);
    if (s->closed && !any_in_flight(l)) return 1;
    now = now_ns();
    if (now >= until) return 0;
    int64_t wake = next_tick(s, now);
    if (wake > until) wake = until;
    // requests waiting for a connection: woken by the first event (rounded up: a wait of 0 would spin)
    if (s->next_to_send < s->scheduled && !s->closed) wait_ms = (int)((wake - now + 999999) / 1000000);
    else sleep_until(wake);
  }
  return 0;
}
