// Reads with their arrival stamps (arrival-stamp.h).
#define _GNU_SOURCE
#include "arrival-stamp.h"

#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>

int arrival_stamps_on(int fd) {
  int one = 1;
  return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
}

static int64_t ns_of(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int64_t arrival_clock_offset(void) {
  // the realtime reading between two monotonic ones: off by half the span at most (tens of ns through the vDSO)
  int64_t before = ns_of(CLOCK_MONOTONIC);
  int64_t real = ns_of(CLOCK_REALTIME);
  int64_t after = ns_of(CLOCK_MONOTONIC);
  return real - (before + (after - before) / 2);
}

ssize_t arrival_read(int fd, void *buffer, size_t len, arrival_control *control, int64_t offset, int64_t *stamp_ns) {
  struct iovec part = {.iov_base = buffer, .iov_len = len};
  struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control->bytes, .msg_controllen = sizeof control->bytes};
  *stamp_ns = 0;
  ssize_t n = recvmsg(fd, &message, 0);
  if (n <= 0) return n;
  for (struct cmsghdr *h = CMSG_FIRSTHDR(&message); h; h = CMSG_NXTHDR(&message, h)) {
    if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SO_TIMESTAMPNS || h->cmsg_len < CMSG_LEN(sizeof(struct timespec))) continue;
    struct timespec t;
    memcpy(&t, CMSG_DATA(h), sizeof t);
    if (t.tv_sec > 0) *stamp_ns = (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec - offset;
  }
  return n;
}
