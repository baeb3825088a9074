import { sourceLanguage, withSyntaxTree } from './source-parser.js';
import type { TestFileCases } from './tripwire-cases.js';
import { jsTestCases } from './tripwire-cases-js.js';
import { pythonTestCases } from './tripwire-cases-python.js';
import { rustTestCases } from './tripwire-cases-rust.js';

/** The test cases of a file (tripwire-cases.ts), or null when bakeoff cannot read it (another language, a syntax error). */
export async function findTestCases(file: string, text: string): Promise<TestFileCases | null> {
  const language = sourceLanguage(file);
  if (language === null) return null;
  return withSyntaxTree(language, text, (root) => {
    if (language === 'python') return pythonTestCases(root, text);
    if (language === 'rust') return rustTestCases(root, text);
    return jsTestCases(root, text, language);
  });
}
