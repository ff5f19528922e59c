// Text helpers with the app's outputs: `java.timeFormat` (FastDateFormat "yyyy/MM/dd HH:mm"),
// `java.timeFormatUTC` (SimpleDateFormat in a fixed offset, the Chinese locale a phone has),
// `java.encodeURI` (URLEncoder), `java.toNumChapter` (StringUtils.stringToInt).
import { translateJavaRegex } from '../../text/java-regex.js';
import { encodeText } from './bytes.js';
import { HelperError } from './errors.js';

const WEEK_SHORT = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
const WEEK_LONG = ['星期日', '星期一', '星期二', '星期三', '星期四', '星期五', '星期六'];

/** The calendar fields of an instant seen at a fixed offset from UTC (ms). */
function fields(time: number, offsetMs: number) {
  const d = new Date(time + offsetMs);
  return {
    y: d.getUTCFullYear(),
    M: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    H: d.getUTCHours(),
    m: d.getUTCMinutes(),
    s: d.getUTCSeconds(),
    S: d.getUTCMilliseconds(),
    E: d.getUTCDay(),
    D: Math.floor((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1,
  };
}

const num = (n: number, width: number): string => String(n).padStart(width, '0');

function zone(offsetMs: number, letter: string, count: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const abs = Math.abs(Math.round(offsetMs / 60_000));
  const hh = num(Math.floor(abs / 60), 2);
  const mm = num(abs % 60, 2);
  if (letter === 'X') {
    if (offsetMs === 0) return 'Z';
    return count === 1 ? `${sign}${hh}` : count === 2 ? `${sign}${hh}${mm}` : `${sign}${hh}:${mm}`;
  }
  if (letter === 'Z') return `${sign}${hh}${mm}`;
  return offsetMs === 0 ? 'UTC' : `GMT${sign}${hh}:${mm}`;
}

/** SimpleDateFormat's letters in the zh-CN locale; quoted text kept; an unknown letter fails as Java's does. */
export function formatDate(time: number, pattern: string, offsetMs: number, helper: string): string {
  const f = fields(time, offsetMs);
  let out = '';
  for (let i = 0; i < pattern.length; ) {
    const c = pattern[i]!;
    if (c === "'") {
      const end = pattern.indexOf("'", i + 1);
      if (end === i + 1) out += "'";
      else out += pattern.slice(i + 1, end < 0 ? pattern.length : end);
      i = end < 0 ? pattern.length : end + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(c)) {
      out += c;
      i++;
      continue;
    }
    let n = 1;
    while (pattern[i + n] === c) n++;
    i += n;
    switch (c) {
      case 'y':
      case 'Y':
      case 'u':
        out += n === 2 ? num(f.y % 100, 2) : num(f.y, n);
        break;
      case 'M':
      case 'L':
        out += n >= 3 ? `${f.M}月` : num(f.M, n);
        break;
      case 'd':
        out += num(f.d, n);
        break;
      case 'D':
        out += num(f.D, n);
        break;
      case 'H':
        out += num(f.H, n);
        break;
      case 'k':
        out += num(f.H === 0 ? 24 : f.H, n);
        break;
      case 'K':
        out += num(f.H % 12, n);
        break;
      case 'h':
        out += num(f.H % 12 === 0 ? 12 : f.H % 12, n);
        break;
      case 'm':
        out += num(f.m, n);
        break;
      case 's':
        out += num(f.s, n);
        break;
      case 'S':
        out += num(f.S, n);
        break;
      case 'E':
        out += n >= 4 ? WEEK_LONG[f.E] : WEEK_SHORT[f.E];
        break;
      case 'a':
        out += f.H < 12 ? '上午' : '下午';
        break;
      case 'z':
      case 'Z':
      case 'X':
        out += zone(offsetMs, c, n);
        break;
      case 'G':
        out += '公元';
        break;
      default:
        throw new HelperError(helper, `illegal pattern character '${c}'`);
    }
  }
  return out;
}

/** The host's own offset at that instant (the phone's time zone in the app; UTC on Workers). */
export const localOffset = (time: number): number => -new Date(time).getTimezoneOffset() * 60_000;

/** `URLEncoder.encode(str, enc)`: letters, digits and `.-*_` kept, space as `+`, the rest %XX of the bytes. */
export function urlEncode(text: string, charset: string, helper: string): string {
  const bytes = encodeText(text, charset, helper);
  let out = '';
  for (const b of bytes) {
    if ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2e || b === 0x2d || b === 0x2a || b === 0x5f)
      out += String.fromCharCode(b);
    else if (b === 0x20) out += '+';
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const CHN: Record<string, number> = { 两: 2, 百: 100, 佰: 100, 千: 1000, 仟: 1000, 万: 10000, 亿: 100000000 };
[...'零一二三四五六七八九十'].forEach((ch, i) => (CHN[ch] = i));
[...'〇壹贰叁肆伍陆柒捌玖拾'].forEach((ch, i) => (CHN[ch] = i));

/** StringUtils.chineseNumToInt: `一千零二十五`, `一千二`, `一零二五`; -1 for a character it does not know. */
function chineseNumToInt(s: string): number {
  const cn = [...s];
  let result = 0;
  let tmp = 0;
  let billion = 0;
  for (let i = 0; i < cn.length; i++) {
    const v = CHN[cn[i]!];
    if (v === undefined) return -1;
    if (v === 100000000) {
      result = (result + tmp) * v;
      billion = billion * 100000000 + result;
      result = 0;
      tmp = 0;
    } else if (v === 10000) {
      result = (result + tmp) * v;
      tmp = 0;
    } else if (v >= 10) {
      if (tmp === 0) tmp = 1;
      result += v * tmp;
      tmp = 0;
    } else {
      const prev = i >= 1 ? CHN[cn[i - 1]!]! : 0;
      tmp = i >= 2 && i === cn.length - 1 && prev > 10 ? (v * prev) / 10 : tmp * 10 + v;
    }
  }
  return (result + tmp + billion) | 0;
}

// The app's patterns as Android reads them (ICU's \s and line terminators).
const SPACES = translateJavaRegex('\\s+').regex;
const TITLE_NUM = translateJavaRegex('(第)(.+?)(章)');

/** StringUtils.stringToInt: full-width to half-width, blanks out, Integer.parseInt, else Chinese numerals. */
export function stringToInt(s: string): number {
  const half = s.replace(/[\u3000\uff01-\uff5e]/g, (c) => (c === '\u3000' ? ' ' : String.fromCharCode(c.charCodeAt(0) - 65248))).replace(SPACES, '');
  if (/^[+-]?\d+$/.test(half)) {
    const n = Number(half);
    if (n >= -2147483648 && n <= 2147483647) return n;
  }
  return chineseNumToInt(half);
}

/** `java.toNumChapter`: the first `第…章` as `第<number>章` (the rest of the title dropped, as the app does). */
export function toNumChapter(s: string | null | undefined): string | null {
  if (s === null || s === undefined) return null;
  const { regex, groups } = TITLE_NUM;
  regex.lastIndex = 0;
  const m = regex.exec(s);
  return m ? `${m[groups[1]!]}${stringToInt(m[groups[2]!]!)}${m[groups[3]!]}` : s;
}
