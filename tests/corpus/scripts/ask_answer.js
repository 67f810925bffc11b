/*
 * Ask and answer: the Cat asks "What is your name?" and "How old are you?". The script answers
 * "Ada" and "12" by emitting ANSWER on the runtime when each QUESTION event comes, as the
 * published benchmark does. A visible sprite's question comes as an empty QUESTION event with
 * the question in a say bubble (a SAY event), so the question text is taken from there.
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  const questions = [];
  const answers = ['Ada', '12'];
  let bubble = '';
  const onSay = (target, type, text) => { bubble = String(text); };
  const onQuestion = (question) => {
    if (question === null) return; // the question was closed
    questions.push(question || bubble);
    const reply = answers[questions.length - 1] || '';
    setTimeout(() => vm.runtime.emit('ANSWER', reply), 50);
  };
  vm.runtime.on('SAY', onSay);
  vm.runtime.on('QUESTION', onQuestion);
  const result = await U.runTests(vm, [
    { name: 'both questions are asked', run: async () => {
      U.greenFlag(vm);
      const done = await U.waitUntil(() => Number(U.getVariableValue(vm, 'done')) === 1, 2000);
      U.check(done, `the program did not finish (questions: ${questions.join(' / ')})`);
      U.check(questions.join(' / ') === 'What is your name? / How old are you?', `questions: ${questions.join(' / ')}`);
    }},
    { name: 'the greeting uses the answer', reset: false, run: async () => {
      const greeting = U.getVariableValue(vm, 'greeting');
      U.check(greeting === 'Hello, Ada', `greeting "${greeting}"`);
    }},
    { name: 'the second answer is doubled', reset: false, run: async () => {
      const age = Number(U.getVariableValue(vm, 'double_age'));
      U.check(age === 24, `double age ${age}`);
    }},
  ], { cleanup });
  vm.runtime.off('QUESTION', onQuestion);
  vm.runtime.off('SAY', onSay);
  return result;
};
