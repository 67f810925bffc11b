/*
 * Published style: after the green flag a setInterval samples the Mover's x every 100 ms, 20
 * times (2 s). The Mover starts at x -150 and moves 10 steps every 0.1 s (on a busy machine
 * every frame is late and it moves less: at least 80 steps are asked for).
 */
module.exports = async (vm, config, cleanup) => {
  const mover = vm.runtime.targets.find((t) => t.sprite && t.sprite.name === 'Mover' && t.isOriginal);
  vm.greenFlag();
  const samples = [];
  await new Promise((resolve) => {
    const id = setInterval(() => {
      samples.push(mover.x);
      if (samples.length >= 20) {
        clearInterval(id);
        resolve();
      }
    }, 100);
  });
  const steady = samples.every((x, i) => i === 0 || x >= samples[i - 1]);
  const travelled = samples[samples.length - 1] - samples[0];
  const moving = steady && travelled >= 80 && travelled <= 230; // at 0.5 s per step: about 40
  const tens = samples.every((x) => (x + 150) % 10 === 0);
  const details = [
    { name: 'the mover keeps moving right at 100 steps per second', passed: moving,
      error: moving ? null : `travelled ${travelled} in 1.9 s: ${samples.join(' ')}`, meta: { travelled } },
    { name: 'it moves in steps of 10', passed: tens, error: tens ? null : `x: ${samples.join(' ')}` },
  ];
  vm.stopAll();
  cleanup();
  const passed = details.filter((d) => d.passed).length;
  return { success: passed === details.length, passed_tests: passed, total_tests: details.length,
           partial_success_rate: passed / details.length, details };
};
