/*
 * The Scratch timer: on the green flag the Clock resets the timer, waits 1 s and stores the
 * timer in t1. Its "when timer > 0.5" hat logs the timer in hat_times each time it fires.
 * The script also measures the wait with Date.now().
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  return U.runTests(vm, [
    { name: 'wait 1 second lasts one second of timer', run: async () => {
      const t0 = Date.now();
      U.greenFlag(vm);
      U.check(await U.waitUntil(() => Number(U.getVariableValue(vm, 'done')) === 1, 3000), 'the Clock did not finish');
      const elapsed = Date.now() - t0;
      const t1 = Number(U.getVariableValue(vm, 't1'));
      // upper bounds leave room for late frames on a busy machine (waiting 2 s reads 2)
      U.check(t1 >= 0.95 && t1 <= 1.5, `the timer read ${t1} s`);
      U.check(elapsed >= 950 && elapsed <= 1900, `took ${elapsed} ms`);
      return { t1, elapsed };
    }},
    { name: 'when timer > 0.5 fires after half a second', reset: false, run: async () => {
      const times = (U.getList(vm, 'hat_times') || []).map(Number);
      U.check(times.length >= 1, 'the hat never fired after the flag');
      const last = times[times.length - 1];
      U.check(last >= 0.45 && last <= 1.0, `it fired at ${times.join(', ')} s`);
      return { times };
    }},
  ], { cleanup });
};
