export default (context) => ({
  onResult(result) {
    context.stdout(`${result.target}:${result.rps}:${context.options.prefix ?? ''}\n`);
  },
});
