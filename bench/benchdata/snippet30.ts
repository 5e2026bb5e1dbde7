interface FileInfo { path: string; words: number }
type Summary = { files: number; words: number; longest?: string };

class Tally {
  #items: FileInfo[] = [];
  add(f: FileInfo): void { this.#items.push(f); }
  get summary(): Summary {
    let words = 0;
    let longest: FileInfo | undefined;
    for (const f of this.#items) {
      words += f.words;
      if (!longest || f.words > longest.words) longest = f;
    }
    return { files: this.#items.length, words, longest: longest?.path };
  }
}

const paths = ["README.md", "main.go"];
const tally = new Tally();
const texts = await Promise.all(paths.map((p) => read(p)));
texts.forEach((text, i) => {
  const words = text.split(/\s+/).filter(Boolean).length;
  tally.add({ path: paths[i], words });
});
const s = tally.summary;
if (s.words === 0) {
  console.log("no words found");
}
console.log(`${s.files} files, ${s.words} words`);
return s;
