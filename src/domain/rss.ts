// RSS articles, read marks and stars (legado-data-layer.md 2.11 to 2.13).
import type { NewRow, Row } from '../schema/row-types.js';
import { checkInteger, checkObject, checkRows, checkText } from '../table/args.js';
import { isWellFormedText, loneSurrogateError } from '../table/text.js';
import { Area } from './support.js';

/** An article as listed: `read` comes from rssReadRecords (joined on the link), not from rssArticles.read. */
export type RssArticle = Row<'rssArticles'>;

/** What star() copies from an article. */
export type StarInput = Pick<Row<'rssArticles'>, 'origin' | 'sort' | 'title' | 'link'> &
  Partial<Pick<Row<'rssArticles'>, 'pubDate' | 'description' | 'content' | 'image' | 'variable'>>;

/** An article to store with addArticles: its order is assigned. */
export type NewArticle = Omit<NewRow<'rssArticles'>, 'origin' | 'sort' | 'order' | 'read'> & { readonly read?: boolean };

const ARTICLE_COLUMNS = ['origin', 'sort', 'title', 'order', 'link', 'pubDate', 'description', 'content', 'image', 'variable'];

export class Rss extends Area {
  private get articlesTable() {
    return this.table('rssArticles');
  }

  private get starsTable() {
    return this.table('rssStars');
  }

  /**
   * The articles of one source and sort, newest `order` first, with `read` taken from the read
   * records as the app's list does (the join is on the link only, whatever the source).
   */
  articles(origin: string, sort: string): RssArticle[] {
    const cols = ARTICLE_COLUMNS.map((c) => `t1.\`${c}\``).join(', ');
    const rows = this.sql(
      `SELECT ${cols}, ifnull(t2.read, 0) AS read FROM rssArticles t1 LEFT JOIN rssReadRecords t2 ON t1.link = t2.record ` +
        'WHERE t1.origin = ? AND t1.sort = ? ORDER BY t1.`order` DESC',
    ).all(origin, sort) as Record<string, unknown>[];
    for (const r of rows) r.read = r.read !== 0;
    return rows as RssArticle[];
  }

  /**
   * Stores a page of articles the way the app's refresh numbers them: `order` starts at now
   * and goes down by one per article, so the list keeps the page's order. Existing articles
   * (same origin and link) are updated in place. Returns the order of the last one.
   */
  addArticles(origin: string, sort: string, articles: readonly NewArticle[], now: number = this.now()): number {
    checkText('rss.addArticles', 'origin', origin);
    checkText('rss.addArticles', 'sort', sort);
    checkRows('rss.addArticles', articles, 'articles', 'an array of article objects');
    checkInteger('rss.addArticles', 'now', now, 'a time in milliseconds (an integer)');
    let order = now;
    this.store.transaction(() => {
      let i = 0;
      for (const a of articles) {
        checkObject('rss.addArticles', `articles[${i}]`, a);
        order = now - i++;
        this.articlesTable.upsert({ ...a, origin, sort, order, read: a.read ?? false });
      }
    });
    return order;
  }

  /** Marks an article link read (a row in rssReadRecords). */
  markRead(link: string): void {
    checkText('rss.markRead', 'link', link);
    if (!isWellFormedText(link)) throw loneSurrogateError('rssReadRecords', 'record', link);
    this.sql('INSERT INTO rssReadRecords (record, read) VALUES (?, 1) ON CONFLICT(record) DO UPDATE SET read = 1').run(link);
  }

  isRead(link: string): boolean {
    return this.table('rssReadRecords').get(link)?.read ?? false;
  }

  /** Stars an article (starTime now); starring it again refreshes the copy and the time. */
  star(article: StarInput, now: number = this.now()): void {
    checkObject('rss.star', 'article', article);
    const { origin, sort, title, link, pubDate, description, content, image, variable } = article;
    // The optional fields only when given: a left-out one takes the column's default.
    const given = Object.fromEntries(Object.entries({ pubDate, description, content, image, variable }).filter(([, v]) => v !== undefined));
    this.starsTable.upsert({ origin, sort, title, link, ...(given as Partial<Omit<StarInput, 'origin' | 'sort' | 'title' | 'link'>>), starTime: now });
  }

  unstar(origin: string, link: string): boolean {
    return this.starsTable.delete({ origin, link });
  }

  isStarred(origin: string, link: string): boolean {
    return this.starsTable.has({ origin, link });
  }

  /** Starred articles, most recently starred first. */
  stars(): Row<'rssStars'>[] {
    return this.starsTable.list({ orderBy: [['starTime', 'desc']] });
  }

  /** Deletes the articles of a source and sort older than `order` (the app's clearOld); returns how many. */
  clearOld(origin: string, sort: string, order: number): number {
    return this.sql('DELETE FROM rssArticles WHERE origin = ? AND sort = ? AND `order` < ?').run(origin, sort, order).changes;
  }

  /** Deletes every article of a source. */
  deleteArticles(origin: string): number {
    return this.sql('DELETE FROM rssArticles WHERE origin = ?').run(origin).changes;
  }
}
