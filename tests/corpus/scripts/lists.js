/*
 * Lists: on the green flag the Cook empties the stage list fruit, adds apple, banana and
 * cherry, inserts avocado at 2, replaces item 3 with blueberry and deletes item 1, leaving
 * avocado, blueberry, cherry; it stores the length, item 1, the item number of cherry and
 * whether banana is in the list, and adds "n3" to its own list notes.
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  const run = async () => { U.greenFlag(vm); await U.waitForIdle(vm, 2000); };
  return U.runTests(vm, [
    { name: 'list blocks leave the expected items', run: async () => {
      await run();
      const fruit = U.getList(vm, 'fruit');
      U.check(JSON.stringify(fruit) === '["avocado","blueberry","cherry"]', `fruit: ${JSON.stringify(fruit)}`);
    }},
    { name: 'list reporters', reset: false, run: async () => {
      const got = ['length', 'first', 'where', 'has_banana'].map((n) => String(U.getVariableValue(vm, n)));
      U.check(got.join(',') === '3,avocado,3,false', `length, first, where, has_banana: ${got.join(', ')}`);
    }},
    { name: "a sprite's own list", reset: false, run: async () => {
      const notes = U.getList(vm, 'notes', 'Cook');
      U.check(JSON.stringify(notes) === '["n3"]', `notes: ${JSON.stringify(notes)}`);
    }},
  ], { cleanup });
};
