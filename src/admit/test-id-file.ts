/**
 * The file a test id names: `doc::src/lib.rs - item` → `src/lib.rs` (rustdoc), else the part
 * before the first `::` (every runner's ids start with the file; a whole-file id is the file). Pure.
 */
export function testIdFile(id: string): string {
  if (id.startsWith('doc::')) return id.slice(5).split(' - ')[0]!;
  return id.split('::')[0]!;
}
