/*
 * Sounds: the Speaker carries a 1 s tone "beep". On "long" it resets the Scratch timer, plays
 * the tone until done and stores the timer in until_done_s; on "short" it starts the tone and
 * stores the timer in start_s at once. Program time is measured twice: by Date.now() here and
 * by the Scratch timer in the program. (Bounds leave room for late frames on a busy machine.)
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  const v = (name) => Number(U.getVariableValue(vm, name));
  const send = async (message, phase) => {
    U.setVariableValue(vm, 'phase', 0);
    const t0 = Date.now();
    U.broadcast(vm, message);
    U.check(await U.waitUntil(() => v('phase') === phase, 3000), `"${message}" did not finish`);
    return Date.now() - t0;
  };
  return U.runTests(vm, [
    { name: 'the project carries its sound', run: async () => {
      const sounds = U.requireSprite(vm, 'Speaker').sprite.sounds;
      U.check(sounds.length === 1 && sounds[0].name === 'beep', `sounds: ${sounds.map((s) => s.name)}`);
      const seconds = sounds[0].sampleCount / sounds[0].rate;
      U.check(Math.abs(seconds - 1) < 0.01, `the sound lasts ${seconds} s`);
    }},
    { name: 'play sound until done waits for the 1 s tone', run: async () => {
      const elapsed = await send('long', 1);
      const timer = v('until_done_s');
      U.check(elapsed >= 900 && elapsed <= 1900, `took ${elapsed} ms`);
      U.check(timer >= 0.9 && timer <= 1.9, `the Scratch timer says ${timer} s`);
      return { elapsed, timer };
    }},
    { name: 'start sound does not wait', run: async () => {
      const elapsed = await send('short', 2);
      const timer = v('start_s');
      U.check(elapsed < 700, `took ${elapsed} ms`);
      U.check(timer < 0.5, `the Scratch timer says ${timer} s`);
      return { elapsed, timer };
    }},
  ], { cleanup });
};
