/*
 * Published style: the script blocks the page with synchronous busy-waits (a loop reading
 * Date.now(), then one reading performance.now(), 300 ms each) right after the green flag,
 * then waits 1.2 s. The Stepper moves 10 steps per frame, ten times, to x 100.
 */
module.exports = async function (vm, config, cleanup) {
  const details = [];
  const stepper = vm.runtime.getSpriteTargetByName('Stepper');
  vm.greenFlag();

  const d0 = Date.now();
  let spins = 0;
  while (Date.now() - d0 < 300) spins += 1;
  details.push({ name: 'a synchronous Date.now() busy-wait ends', passed: Date.now() - d0 >= 300, meta: { spins } });

  const p0 = performance.now();
  spins = 0;
  while (performance.now() - p0 < 300) spins += 1;
  details.push({ name: 'a synchronous performance.now() busy-wait ends', passed: performance.now() - p0 >= 300, meta: { spins } });

  await new Promise((resolve) => setTimeout(resolve, 1200));
  const x = stepper.x;
  details.push({ name: 'the program ran to x 100 after the busy-waits', passed: x === 100,
                 error: x === 100 ? null : `x is ${x}` });

  vm.stopAll();
  cleanup();
  const passed = details.filter((d) => d.passed).length;
  return { success: passed === details.length, passed_tests: passed, total_tests: details.length,
           partial_success_rate: passed / details.length, details };
};
