package goja

import "testing"

func TestRegexpHasIndices(t *testing.T) {
	const SCRIPT = `
	const m = /(?<y>\d{4})-(?<mo>\d\d)|(z)/d.exec("in 2024-05");
	const i = m.indices;
	const u = /(a)|(b)/du.exec("\u{1F600}b").indices;
	[
		Object.keys(m).join(), Object.keys(/x/.exec("x")).join(),
		JSON.stringify(i), JSON.stringify(i.groups), i[3] === undefined, i.groups.y.join(),
		/x/.exec("x").indices === undefined, /(x)/d.exec("x").indices.groups === undefined,
		JSON.stringify(u), /x/gd.flags, /x/d.hasIndices, /x/.hasIndices, RegExp.prototype.hasIndices,
		(() => { try { new RegExp("x", "dd"); return "no" } catch (e) { return e.name } })(),
		[..."a1b22".matchAll(/(?<n>\d+)/dg)].map((m) => m.indices.groups.n.join("-")).join(),
	].join("|");
	`
	testScript(SCRIPT, asciiString(`0,1,2,3,index,input,groups,indices|0,index,input,groups|[[3,10],[3,7],[8,10],null]|{"y":[3,7],"mo":[8,10]}|true|3,7|true|true|[[2,3],null,[2,3]]|dg|true|false||SyntaxError|1-2,3-5`), t)
}
