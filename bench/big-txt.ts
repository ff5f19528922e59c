// The TXT the split benchmarks use: UTF-8 Chinese, a heading every ~6 KB, made here; and the
// app's default 目录 rule that splits it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_TOC_RULE =
  '^[ 　\\t]{0,4}(?:序章|楔子|正文(?!完|结)|终章|后记|尾声|番外|第\\s{0,4}[\\d〇零一二两三四五六七八九十百千万壹贰叁肆伍陆柒捌玖拾佰仟]+?\\s{0,4}(?:章|节(?!课)|卷|集(?![合和])|部(?![分赛游])|篇(?!张))).{0,30}$';

/** Writes a book of about `mb` MB as `big.txt` in `dir`; its path. */
export function writeBigTxt(dir: string, mb: number): string {
  const path = join(dir, 'big.txt');
  const para = '　　他抬起头，看见天边的云慢慢散开，远处传来钟声，城里的人们开始了新的一天。\n';
  const parts: string[] = [];
  let size = 0;
  for (let k = 1; size < mb * 1e6; k++) {
    const ch = `第${k}章 风起云涌\n${para.repeat(50)}`;
    parts.push(ch);
    size += Buffer.byteLength(ch);
  }
  writeFileSync(path, parts.join(''));
  return path;
}
