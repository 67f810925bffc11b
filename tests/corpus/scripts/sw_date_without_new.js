/*
 * Published style: `Date()` called without `new` returns the current date as a string, as in
 * any browser. The program stores the current year (sensing "current year") and the days
 * since 2000; both must agree with the page's own clock.
 */
module.exports = async (vm, config, cleanup) => {
  const details = [];
  async function test(name, fn) {
    const started = Date.now();
    try {
      const meta = await fn();
      details.push({ name, passed: true, timeout: false, duration_ms: Date.now() - started, error: null, meta: meta || {} });
    } catch (e) {
      details.push({ name, passed: false, timeout: false, duration_ms: Date.now() - started,
                     error: String((e && e.message) || e), meta: {} });
    }
  }
  const stage = vm.runtime.getTargetForStage();
  const variable = (name) => Object.values(stage.variables).find((v) => v.name === name).value;

  vm.greenFlag();
  const start = Date.now();
  while (Number(variable('done')) !== 1 && Date.now() - start < 2000) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  await test('Date() without new returns the date as a string', () => {
    const text = Date();
    if (typeof text !== 'string') throw new Error(`Date() gave a ${typeof text}`);
    const year = text.split(' ')[3];
    if (year !== String(variable('year'))) {
      throw new Error(`Date() says "${text}"; the program's year is ${variable('year')}`);
    }
    return { text };
  });
  await test("the program's year is this year", () => {
    const year = new Date().getFullYear();
    if (Number(variable('year')) !== year) throw new Error(`the program says ${variable('year')}, not ${year}`);
  });
  await test('days since 2000 agrees with Date.now()', () => {
    const expected = (Date.now() - Date.UTC(2000, 0, 1)) / 86400000;
    const got = Number(variable('days'));
    if (!(Math.abs(got - expected) < 1)) throw new Error(`days since 2000: ${got}; Date.now() gives ${expected}`);
    return { got, expected };
  });

  vm.stopAll();
  cleanup();
  const passed = details.filter((d) => d.passed).length;
  return { success: passed === details.length, passed_tests: passed, total_tests: details.length,
           partial_success_rate: passed / details.length, details };
};
