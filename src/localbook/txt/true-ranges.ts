// The bytes each chapter really covers. The app's TextFile computes a chapter's start from the
// block's offset plus the text since the previous match, not since the block's start, so after a
// long chapter is split mid-block the following chapters of that block point too early and read
// the wrong bytes. The split keeps the app's arithmetic for its decisions (which chapters are
// split, into how many pieces, so titles and indexes match the phone's) and records beside each
// chapter where it really starts (`at`); these turn those into the ranges stored and read.
import type { DraftChapter } from './split.js';

/**
 * Places the pieces of a long chapter cut by the app's arithmetic from [appFrom, appTo) into the
 * chapter's real bytes [from, to): each piece moved by the same distance, kept inside the range.
 */
export function placePieces(pieces: readonly DraftChapter[], appFrom: number, from: number, to: number): void {
  for (const p of pieces) p.at = Math.min(to, Math.max(from, p.start - appFrom + from));
}

/** Each chapter runs from its real start to the next one's; an emptied heading stays empty. */
export function settleRanges(toc: readonly DraftChapter[], fileEnd: number): void {
  toc.forEach((c, i) => {
    if (c.at === undefined) return;
    const emptied = c.end === c.start && i < toc.length - 1;
    c.start = c.at;
    c.end = emptied ? c.at : (toc[i + 1]?.at ?? fileEnd);
    delete c.at;
  });
}
