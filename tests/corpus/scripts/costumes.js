/*
 * Costumes, whatever their format (bitmap at resolution 2 or 1, or vector): the Block sprite's
 * "wide" costume is 60 x 40 on stage and its "round" one 40 x 40. The message "swap" switches
 * to "round" by name; "approach" walks the round Block from x 0 towards the vector Target
 * (at x 105) ten steps at a time until they touch, which happens at x 70 when both are drawn
 * at their true size.
 */
module.exports = async (vm, config, cleanup) => {
  const U = EvaluationUtils;
  const phase = () => Number(U.getVariableValue(vm, 'phase'));
  const size = (name) => {
    const b = vm.renderer.getBounds(U.requireSprite(vm, name).drawableID);
    return { w: Math.round(b.right - b.left), h: Math.round(b.top - b.bottom) };
  };
  const start = async () => {
    U.greenFlag(vm);
    await U.waitForIdle(vm, 2000);
  };
  return U.runTests(vm, [
    { name: 'costumes load at their stage size', run: async () => {
      await start();
      const s = U.getSpriteState(vm, 'Block');
      U.check(s.costume === 'wide', `costume ${s.costume}`);
      const { w, h } = size('Block');
      U.check(Math.abs(w - 60) <= 3 && Math.abs(h - 40) <= 3, `"wide" is ${w} x ${h}, not 60 x 40`);
      return { w, h };
    }},
    { name: 'switching costumes by name', run: async () => {
      await start();
      U.broadcast(vm, 'swap');
      U.check(await U.waitUntil(() => phase() === 1, 2000), 'the swap script did not finish');
      const s = U.getSpriteState(vm, 'Block');
      U.check(s.costume === 'round', `costume ${s.costume}`);
      const { w, h } = size('Block');
      U.check(Math.abs(w - 40) <= 3 && Math.abs(h - 40) <= 3, `"round" is ${w} x ${h}, not 40 x 40`);
      return { w, h };
    }},
    { name: 'the round costume touches the vector Target at x 70', run: async () => {
      await start();
      U.check(!U.isTouching(vm, 'Block', 'Target'), 'touching before moving');
      U.broadcast(vm, 'approach');
      U.check(await U.waitUntil(() => phase() === 2, 3000), 'the approach script did not finish');
      const hitX = Number(U.getVariableValue(vm, 'hit_x'));
      U.check(U.isTouching(vm, 'Block', 'Target'), `not touching at x ${hitX}`);
      U.check(hitX === 70, `stopped at x ${hitX}`);
      return { hitX };
    }},
  ], { cleanup });
};
