/*
 * Published style (no helper library): the Runner glides from x -100 to x 100 in 1 s after
 * the green flag. Waits are loops over Date.now() with setTimeout; the glide is timed with
 * performance.now(). (Bounds leave room for the late frames of a busy machine: half a second
 * in, the runner has left x -100 and not yet reached x 100.)
 */
module.exports = async function evaluate(vm, config, cleanup) {
  const details = [];
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  async function waitFor(condition, timeoutMs) {
    const start = Date.now();
    while (Date.now() - start < timeoutMs) {
      if (condition()) return true;
      await sleep(50);
    }
    return condition();
  }
  function record(name, passed, error, meta) {
    details.push({ name, passed, timeout: false, duration_ms: 0, error: passed ? null : error, meta: meta || {} });
  }
  const runner = vm.runtime.targets.find((t) => t.isOriginal && !t.isStage && t.getName() === 'Runner');

  vm.greenFlag();
  const t0 = performance.now();
  const arrived = await waitFor(() => Math.abs(runner.x - 100) < 0.5, 2000);
  const elapsed = Math.round(performance.now() - t0);
  record('the runner reaches x 100 within 2 s', arrived, `x is ${runner.x} after 2 s`);
  record('the glide takes about one second (performance.now)', arrived && elapsed >= 850 && elapsed <= 1900,
    `arrived: ${arrived}, after ${elapsed} ms`, { elapsed });

  vm.stopAll();
  vm.greenFlag();
  const start = Date.now();
  while (Date.now() - start < 500) {
    await sleep(10);
  }
  const x = runner.x;
  record('the runner is on its way after half a second (Date.now loop)', x > -100 && x < 100, `x is ${x} after 0.5 s`, { x });

  vm.stopAll();
  cleanup();
  const passed = details.filter((d) => d.passed).length;
  return { success: passed === details.length, passed_tests: passed, total_tests: details.length,
           partial_success_rate: passed / details.length, details };
};
