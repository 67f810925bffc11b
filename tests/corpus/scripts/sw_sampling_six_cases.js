/*
 * Published style, many cases sampled for seconds each: for six start directions the Ball is
 * put at (0, 0) facing that way, the green flag is clicked, and its x is sampled every 100 ms
 * for 3 s with setInterval. A case passes when the ball stays on the stage and turns back at
 * least once between the side walls.
 */
module.exports = async (vm, config, cleanup) => {
  const ball = vm.runtime.getSpriteTargetByName('Ball');
  const details = [];
  for (const direction of [90, -90, 45, -135, 0, 180]) {
    const started = Date.now();
    vm.stopAll();
    ball.setXY(0, 0);
    ball.setDirection(direction);
    vm.greenFlag();
    const xs = [];
    await new Promise((resolve) => {
      const id = setInterval(() => {
        xs.push(ball.x);
        if (xs.length >= 30) {
          clearInterval(id);
          resolve();
        }
      }, 100);
    });
    let turns = 0;
    let heading = 0;
    for (let i = 1; i < xs.length; i++) {
      const step = Math.sign(xs[i] - xs[i - 1]);
      if (step !== 0 && heading !== 0 && step !== heading) turns += 1;
      if (step !== 0) heading = step;
    }
    const inside = xs.every((x) => Math.abs(x) <= 240);
    const passed = inside && turns >= 1;
    details.push({
      name: `start direction ${direction}: bounces between the side walls`, passed, timeout: false,
      duration_ms: Date.now() - started,
      error: passed ? null : `turned ${turns} times; x: ${xs.map(Math.round).join(' ')}`, meta: { turns },
    });
  }
  vm.stopAll();
  cleanup();
  const passed = details.filter((d) => d.passed).length;
  return { success: passed === details.length, passed_tests: passed, total_tests: details.length,
           partial_success_rate: passed / details.length, details };
};
