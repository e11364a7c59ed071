export default {
  seen: 0,
  onResult() {
    this.seen++;
  },
};
