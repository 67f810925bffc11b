// Compute task: for each test case in config.test_cases, press the green flag, answer the
// program's questions with the case's input(s), and check the last thing a sprite said.
const EU = EvaluationUtils;
const { check } = EU;

function sameAnswer(said, expected) {
  const a = String(said).trim();
  const b = String(expected).trim();
  if (a.toLowerCase() === b.toLowerCase()) return true;
  return a !== '' && b !== '' && !Number.isNaN(Number(a)) && Number(a) === Number(b);
}

function testCase(vm, tc) {
  const inputs = Array.isArray(tc.input) ? tc.input : [tc.input];
  return {
    name: `input ${inputs.map((i) => JSON.stringify(i)).join(', ')} gives ${tc.output}`,
    timeoutMs: 8000,
    run: async () => {
      const says = EU.recordSays(vm);
      const answers = EU.autoAnswer(vm, inputs);
      try {
        EU.greenFlag(vm);
        await EU.sleep(100);
        await EU.waitForIdle(vm, 5000);
        await EU.sleep(50);
        const asked = answers.questions.length;
        check(asked >= inputs.length, `the program asked ${asked} question(s), expected ${inputs.length}`);
        const last = says.last();
        check(last !== null && sameAnswer(last, tc.output), `expected ${tc.output}, the last thing said was ${JSON.stringify(last)}`);
        return { said: says.texts() };
      } finally {
        says.stop();
        answers.stop();
      }
    },
  };
}

module.exports = async (vm, config, cleanup) => {
  const cases = (config.test_cases || []).map((tc) => testCase(vm, tc));
  if (cases.length === 0) throw new Error('this task has no test cases in its evaluation');
  return EU.runTests(vm, cases, { cleanup });
};
