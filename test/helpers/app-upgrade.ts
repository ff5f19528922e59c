// Test oracle: the app's own upgrade 49 -> 62 replayed step by step as legado-data-layer.md 5.2
// describes Room's generated AutoMigrations, with the app's exported createSql (room-62-ddl.ts)
// for every table it creates or rebuilds. Written by hand on purpose: it shares no code with
// src/migrate, so agreeing with it means agreeing with the app.
import type { Connection as Database } from '../../src/engine/driver.js';
import { ROOM_62_TABLES } from '../fixtures/room-62-ddl.js';

const create = (table: string, as = table): string => ROOM_62_TABLES[table]!.replace('${TABLE_NAME}', as);

/** Room's rebuild: CREATE `_new_t`, copy the common columns, DROP, RENAME (indices come after). */
function rebuild(db: Database, table: string, columns: string): void {
  db.exec(create(table, `_new_${table}`));
  db.exec(`INSERT INTO \`_new_${table}\` (${columns}) SELECT ${columns} FROM \`${table}\``);
  db.exec(`DROP TABLE \`${table}\``);
  db.exec(`ALTER TABLE \`_new_${table}\` RENAME TO \`${table}\``);
}

const BOOK_COLUMNS =
  '`bookUrl`,`tocUrl`,`origin`,`originName`,`name`,`author`,`kind`,`customTag`,`coverUrl`,`customCoverUrl`,`intro`,`customIntro`,`charset`,`type`,`group`,`latestChapterTitle`,`latestChapterTime`,`lastCheckTime`,`lastCheckCount`,`totalChapterNum`,`durChapterTitle`,`durChapterIndex`,`durChapterPos`,`durChapterTime`,`wordCount`,`canUpdate`,`order`,`originOrder`,`variable`,`readConfig`';
const RSS_COLUMNS_58 =
  '`sourceUrl`,`sourceName`,`sourceIcon`,`sourceGroup`,`sourceComment`,`enabled`,`variableComment`,`enabledCookieJar`,`concurrentRate`,`header`,`loginUrl`,`loginUi`,`loginCheckJs`,`coverDecodeJs`,`sortUrl`,`singleUrl`,`articleStyle`,`ruleArticles`,`ruleNextPage`,`ruleTitle`,`rulePubDate`,`ruleDescription`,`ruleImage`,`ruleLink`,`ruleContent`,`style`,`enableJs`,`loadWithBaseUrl`,`injectJs`,`lastUpdateTime`,`customOrder`';

/** Runs the app's migrations on an open 49 file, in one transaction with foreign keys off. */
export function appUpgrade(db: Database): void {
  db.pragma('foreign_keys = OFF');
  db.transaction(() => {
    // 49->50
    db.exec('ALTER TABLE `book_sources` ADD COLUMN `variableComment` TEXT DEFAULT NULL');
    db.exec('ALTER TABLE `rssSources` ADD COLUMN `variableComment` TEXT DEFAULT NULL');
    // 50->51
    rebuild(db, 'readRecord', '`deviceId`,`bookName`,`readTime`');
    // 51->52
    db.exec('ALTER TABLE `txtTocRules` ADD COLUMN `example` TEXT DEFAULT NULL');
    // 52->53
    db.exec('ALTER TABLE `book_sources` ADD COLUMN `enabledReview` INTEGER DEFAULT NULL');
    db.exec('ALTER TABLE `book_sources` ADD COLUMN `ruleReview` TEXT DEFAULT NULL');
    // 53->54 (its books rebuild, with type DEFAULT 1, is superseded by 54->55's and left out)
    db.exec('ALTER TABLE `book_sources` ADD COLUMN `coverDecodeJs` TEXT DEFAULT NULL');
    db.exec('ALTER TABLE `rssSources` ADD COLUMN `coverDecodeJs` TEXT DEFAULT NULL');
    db.exec('ALTER TABLE `rssSources` ADD COLUMN `lastUpdateTime` INTEGER NOT NULL DEFAULT 0');
    // 54->55 and Migration_54_55
    rebuild(db, 'books', BOOK_COLUMNS);
    db.exec('CREATE UNIQUE INDEX IF NOT EXISTS `index_books_name_author` ON `books` (`name`, `author`)');
    db.exec('update books set type = 32 where type = 1');
    db.exec('update books set type = 64 where type = 2');
    db.exec('update books set type = 128 where type = 3');
    db.exec('update books set type = 8 where type = 0');
    db.exec("update books set type = type | 256 where origin like 'loc_book%' or origin like 'webDav::%'");
    // 56->57
    db.exec('ALTER TABLE `rssSources` ADD COLUMN `injectJs` TEXT DEFAULT NULL');
    // 57->58
    db.exec('ALTER TABLE `book_groups` ADD COLUMN `bookSort` INTEGER NOT NULL DEFAULT -1');
    // 58->59
    rebuild(db, 'rssSources', RSS_COLUMNS_58);
    db.exec('CREATE INDEX IF NOT EXISTS `index_rssSources_sourceUrl` ON `rssSources` (`sourceUrl`)');
    // 59->60 and 60->61 (dictRules is created, then rebuilt to its final form: empty either way)
    db.exec(create('dictRules', '_new_dictRules'));
    db.exec('ALTER TABLE `_new_dictRules` RENAME TO `dictRules`');
    // 61->62
    db.exec(create('servers'));
    db.exec('CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT)');
    db.exec("INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42, '965c5f1d4c60d25b4b46efb17c575c85')");
    db.pragma('user_version = 62');
  })();
  db.pragma('foreign_keys = ON');
}
