// Reading time (legado-data-layer.md 2.15): rows per (deviceId, bookName), in milliseconds.
// The app writes its own rows under deviceId '' and its lists add up every device's rows.
import { checkInteger, checkOptions, checkText } from '../table/args.js';
import type { SchemaVersion } from '../schema/index.js';
import type { Row } from '../schema/row-types.js';
import { compareLocalized } from './collation.js';
import { Area, containing } from './support.js';

/** One book's reading across devices. */
export interface ReadTotal {
  readonly bookName: string;
  /** Sum over devices, ms. */
  readonly readTime: number;
  /** Latest lastRead over devices, epoch ms (0 at schema 49, which does not record it). */
  readonly lastRead: number;
}

export interface AddTimeOptions {
  /** Default '' (what the app writes). */
  readonly deviceId?: string;
  /** Default: now (the store's clock). */
  readonly now?: number;
}

export class ReadRecords<V extends SchemaVersion = 62> extends Area {
  private get t() {
    return this.table('readRecord');
  }

  /** lastRead arrived with 51. */
  private get hasLastRead(): boolean {
    return this.hasColumn('readRecord', 'lastRead');
  }

  /**
   * Adds `ms` of reading to the (deviceId, bookName) row, creating it when missing, and sets
   * its lastRead to now. Returns the row. (The app itself reads the all-device sum first and
   * writes it back under '', which counts other devices' time twice; this adds to one row only.)
   */
  addTime(bookName: string, ms: number, options: AddTimeOptions = {}): Row<'readRecord', V> {
    checkInteger('readRecords.addTime', 'ms', ms, 'a whole number of milliseconds, 0 or more', 0, Number.MAX_SAFE_INTEGER);
    checkOptions('readRecords.addTime', 'options', options);
    const deviceId = options.deviceId ?? '';
    if (!this.hasLastRead) {
      this.sql(
        'INSERT INTO readRecord (deviceId, bookName, readTime) VALUES (?, ?, ?) ' +
          'ON CONFLICT(deviceId, bookName) DO UPDATE SET readTime = readTime + excluded.readTime',
      ).run(deviceId, bookName, ms);
    } else {
      this.sql(
        'INSERT INTO readRecord (deviceId, bookName, readTime, lastRead) VALUES (?, ?, ?, ?) ' +
          'ON CONFLICT(deviceId, bookName) DO UPDATE SET readTime = readTime + excluded.readTime, lastRead = excluded.lastRead',
      ).run(deviceId, bookName, ms, options.now ?? this.now());
    }
    return this.t.get({ deviceId, bookName }) as Row<'readRecord', V>;
  }

  /** Every book's total over all devices, sorted by book name Chinese-aware (the app's allShow). */
  totals(): ReadTotal[] {
    return this.aggregate('', []);
  }

  /** The same, for book names containing `key`. */
  search(key: string): ReadTotal[] {
    checkText('readRecords.search', 'key', key);
    const m = this.like('bookName', containing(key));
    return this.aggregate(`WHERE ${m.sql}`, m.params);
  }

  /** All reading time, every book and device. */
  total(): number {
    return this.sqlValue('SELECT ifnull(sum(readTime), 0) FROM readRecord').get() as number;
  }

  /** A book's reading time: over all devices, or on one device. */
  timeOf(bookName: string, deviceId?: string): number {
    if (deviceId !== undefined) return this.t.get({ deviceId, bookName })?.readTime ?? 0;
    return this.sqlValue('SELECT ifnull(sum(readTime), 0) FROM readRecord WHERE bookName = ?').get(bookName) as number;
  }

  /** When the book was last read on any device (epoch ms), or undefined when it has no record. */
  lastRead(bookName: string): number | undefined {
    if (!this.t.count({ bookName })) return undefined;
    if (!this.hasLastRead) return 0;
    return this.sqlValue('SELECT max(lastRead) FROM readRecord WHERE bookName = ?').get(bookName) as number;
  }

  /** Deletes a book's rows on every device. */
  delete(bookName: string): number {
    return this.sql('DELETE FROM readRecord WHERE bookName = ?').run(bookName).changes;
  }

  clear(): number {
    return this.sql('DELETE FROM readRecord').run().changes;
  }

  private aggregate(where: string, params: readonly unknown[]): ReadTotal[] {
    const last = this.hasLastRead ? 'max(lastRead)' : '0';
    const rows = this.sql(`SELECT bookName, sum(readTime) AS readTime, ${last} AS lastRead FROM readRecord ${where} GROUP BY bookName`).all(
      params,
    ) as ReadTotal[];
    return rows.sort((a, b) => compareLocalized(a.bookName, b.bookName));
  }
}
