// A snippet as a model would write it: types are stripped, not checked.
interface Greeting {
  who: string;
  times: number;
}

const greetings: Greeting[] = [
  { who: "world", times: 1 },
  { who: "codeexec", times: 2 },
];

for (const g of greetings) {
  console.log(`hello, ${g.who}`.repeat(g.times));
}

// Top-level await and return work; the returned value is printed last.
await new Promise((resolve) => setTimeout(resolve, 10));
return { greeted: greetings.map((g) => g.who) };
