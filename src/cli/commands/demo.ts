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
        const shelf = store.tables.books.list({ orderBy: [['durChapterTime', 'desc']] });
        process.stdout.write(`bookshelf (last read first):\n`);
        for (const b of shelf) {
          const chapters = store.tables.chapters.count({ bookUrl: b.bookUrl });
          process.stdout.write(`  ${b.name} / ${b.author}: ${chapters} chapters, at ${b.durChapterTitle ?? '-'}, group bits ${b.group}\n`);
        }
      } finally {
        store.close();
      }
      process.stdout.write('\n' + renderInspection(inspectFile(file)));
    });
}
