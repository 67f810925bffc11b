/*
 * Published style: a SAY listener on the runtime records what the Speaker says and thinks
 * during 1.5 s after the green flag. The Speaker, at (30, -40), says "Hello!" for 0.5 s,
 * thinks "Hmm..." for 0.3 s, then says "x is 30".
 */
module.exports = async (vm, config, cleanup) => {
  const said = [];
  const onSay = (target, type, text) => {
    if (text !== '') said.push({ sprite: target.sprite.name, type, text: String(text), at: Date.now() });
  };
  vm.runtime.on('SAY', onSay);
  vm.greenFlag();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  vm.runtime.off('SAY', onSay);

  const shown = said.map((e) => `${e.type} "${e.text}"`).join(', ');
  const first = said[0];
  const think = said.find((e) => e.type === 'think' && e.text === 'Hmm...');
  const gap = think && first ? think.at - first.at : null;
  const last = said[said.length - 1];
  const details = [
    { name: 'says Hello! first', passed: !!first && first.type === 'say' && first.text === 'Hello!' },
    { name: 'thinks Hmm... half a second later', passed: gap !== null && gap >= 400 && gap <= 1200, meta: { gap } },
    { name: 'says its x position last', passed: !!last && last.type === 'say' && last.text === 'x is 30' },
  ];
  for (const d of details) d.error = d.passed ? null : `heard: ${shown} (think ${gap} ms after the first)`;
  vm.stopAll();
  cleanup();
  const passed = details.filter((d) => d.passed).length;
  return { success: passed === details.length, passed_tests: passed, total_tests: details.length,
           partial_success_rate: passed / details.length, details };
};
