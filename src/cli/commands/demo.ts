import { rmSync } from 'node:fs';
import type { Command } from 'commander';
import { inspectFile, openStore } from '../../store/open.js';
import { fillSample } from '../../sample/sample.js';
import { renderInspection } from '../report.js';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('create a store file (replacing it), fill it with a small made-up sample, and show what is in it')
    .argument('[file]', 'the database file to write', 'legado-demo.db')
    .action((file: string) => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
      const store = openStore(file, { schema: 62 });
      try {
        fillSample(store);
        // What a reader shows first: the visible bookshelf tabs, then the "全部" tab, last read first.
        const tabs = store.bookGroups.visible().map((g) => g.groupName);
        process.stdout.write(`bookshelf tabs: ${tabs.join(' | ')}\n`);
        process.stdout.write(`bookshelf (全部, last read first):\n`);
        for (const b of store.books.shelf(-1)) {
          const groups = store.bookGroups.namesOf(b.group).join(', ') || '-';
          process.stdout.write(`  ${b.name} / ${b.author}: ${store.chapters.count(b.bookUrl)} chapters, at ${b.durChapterTitle ?? '-'}, groups ${groups}\n`);
        }
      } finally {
        store.close();
      }
      process.stdout.write('\n' + renderInspection(inspectFile(file)));
    });
}
