import { describe, expect, it } from 'vitest';
import { switchOnSkipped } from './import-exercism.js';

describe('switchOnSkipped', () => {
  it('turns xtest( and xit( into test( and it( for JavaScript and TypeScript, and counts them', () => {
    expect(switchOnSkipped("test('a', f);\nxtest('b', f);\n  xit('c', f);\nexit(1);\n", 'js')).toEqual({ text: "test('a', f);\ntest('b', f);\n  it('c', f);\nexit(1);\n", count: 2 });
  });

  it('removes #[ignore] lines (with or without a reason) for Rust', () => {
    expect(switchOnSkipped('#[test]\n#[ignore]\nfn a() {}\n#[test]\n    #[ignore = "slow"]\nfn b() {}\n', 'rust')).toEqual({ text: '#[test]\nfn a() {}\n#[test]\nfn b() {}\n', count: 2 });
  });

  it('leaves Python tests as they are', () => {
    expect(switchOnSkipped('def test_x():\n    pass\n', 'python')).toEqual({ text: 'def test_x():\n    pass\n', count: 0 });
  });
});
