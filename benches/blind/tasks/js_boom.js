var a = {x: 0, y: 0, c: []};
var b = [5, 3, 8, 1, 9, 2];
var c = 0;
function f(a, b) {
let c = g(a, b * 2);
if (c > 1000) {
console.log("large", c);
}
return c + 1;
}
function g(a, b) {
if (a.length > 6 && b > 5) {
throw new Error("BOOM");
}
let c = 0;
for (let f = 0; f < 6; f++) {
c += a[f] * b;
}
return c;
}
console.log("start", b.length);
for (let a = 0; a < 3; a++) {
c = c + f(b, a);
console.log("round", a, c);
}
a.x = c;
a.y = c % 7;
a.c.push(a.x);
a.c.push(a.y);
console.log("state", a.x, a.y, a.c);
if (a.y === 3) {
console.log("three");
} else {
console.log("not three", a.y);
}
{
let b = [1, 2, 3, 4, 5, 6];
let c = f(b, 4) - f(b, 1);
console.log("block diff", c);
a.c.push(c);
}
var c = {a: 1, b: [2, 3], c: {x: "deep", y: true}};
console.log("object", c.a, c.b.length, c.c.x, c.c.y);
c.a = c.a + c.b[0] * c.b[1];
if (c.c.y && c.a > 5) {
c.c.x = "changed";
}
console.log("changed", c.a, c.c.x);
b.push(7);
console.log("pushed", b.length);
function c(a) {
let b = 0;
while (b < 5) {
a.push(b);
b++;
}
return a;
}
console.log("unused", [1, 2].length);
a.b = function (a) {
return f(a, 3) + f(a, 1);
};
console.log("small", a.b([1, 1, 1, 1, 1, 1]));
a.a = function (b) {
if (b.length > 6) {
return a.b(b) * 2;
}
return 0;
};
console.log("medium", a.a([1, 2, 3]));
a.y = [10, 20, 30, 40].map(function (a) {
return a / 10 + 1;
});
console.log("mapped", a.y, a.y.length);
for (let c = 0; c < 4; c++) {
if (a.y[c] > 3 || a.y[c] === 2) {
console.log("picked", a.y[c]);
}
}
console.log("final call");
console.log("result", a.a(b));
console.log("never printed");
