/*
 * Music: on the green flag the Drummer sets the tempo to 120 bpm, resets the Scratch timer,
 * rests for 1 beat, plays drum 1 for 0.5 beat and note 60 for 0.5 beat (two beats: 1 s), then
 * stores the timer in elapsed and the tempo reporter in tempo.
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  const v = (name) => Number(U.getVariableValue(vm, name));
  return U.runTests(vm, [
    { name: 'two beats at 120 bpm take one second', run: async () => {
      const t0 = Date.now();
      U.greenFlag(vm);
      U.check(await U.waitUntil(() => v('done') === 1, 4000), 'the program did not finish');
      const elapsed = Date.now() - t0;
      const timer = v('elapsed');
      // (upper bounds leave room for the first frames after the extension decodes its
      // instruments on a busy machine; the same program at 60 bpm takes 2 s)
      U.check(timer >= 0.9 && timer <= 1.6, `the Scratch timer says ${timer} s`);
      U.check(elapsed >= 900 && elapsed <= 1900, `took ${elapsed} ms`);
      return { elapsed, timer };
    }},
    { name: 'the tempo is 120 bpm', reset: false, run: async () => {
      const stageTempo = U.getStage(vm).tempo;
      U.check(v('tempo') === 120 && stageTempo === 120, `tempo ${v('tempo')}, stage ${stageTempo}`);
    }},
  ], { cleanup });
};
