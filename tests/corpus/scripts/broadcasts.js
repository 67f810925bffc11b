/*
 * Broadcasts: the Sender logs "start", broadcasts "work" and waits, logs "after work",
 * broadcasts "ping" without waiting and logs "after ping". The Worker answers "work" after
 * 0.3 s ("worked") and logs "ping seen by Worker" at once; the Echo logs "pong" 0.2 s after
 * "ping".
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  const log = () => U.getList(vm, 'log') || [];
  const at = (item) => log().indexOf(item);
  return U.runTests(vm, [
    { name: 'broadcast and wait waits for the receivers', run: async () => {
      U.greenFlag(vm);
      await U.waitUntil(() => log().length >= 6, 2000);
      U.check(at('start') === 0 && at('worked') === 1 && at('after work') === 2, `log: ${log().join(' | ')}`);
    }},
    { name: 'a broadcast reaches every receiver', reset: false, run: async () => {
      const both = await U.waitUntil(() => at('ping seen by Worker') >= 0 && at('pong') >= 0, 1000);
      U.check(both, `log: ${log().join(' | ')}`);
    }},
    { name: 'broadcast does not wait', reset: false, run: async () => {
      U.check(at('after ping') >= 0 && at('after ping') < at('pong'), `log: ${log().join(' | ')}`);
      U.check(Number(U.getVariableValue(vm, 'done')) === 1, 'the Sender did not finish');
    }},
  ], { cleanup });
};
