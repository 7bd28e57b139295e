var a = [2, 4, 6, 8, 10];
var b = {x: 1, y: 2, c: "label"};
var c = [];
function f(b) {
let c = 0;
for (let a = 0; a < 5; a++) {
c += b[a];
}
return c;
}
console.log("sum", f(a));
b.x = f(a) / 5;
b.y = b.x * 2 - 1;
console.log("stats", b.x, b.y, b.c);
for (let g = 0; g < 3; g++) {
c.push(g * b.x);
if (g === 1) {
c.push(0);
}
}
console.log("list", c, c.length);
function g(c, b) {
if (c > b) {
return c - b;
}
if (c === b) {
return 0;
}
return b - c;
}
console.log("diff", g(3, 9), g(9, 3), g(4, 4));
{
let b = g(10, 2);
let c = [b, b + 1, b + 2];
console.log("inner", b, c);
}
b.a = function (c) {
let b = [];
for (let a = 0; a < 4; a++) {
if (c[a] > 3) {
b.push(c[a]);
} else {
b.push(0);
}
}
return b;
};
console.log("filtered", b.a([1, 5, 2, 7]));
var c = {a: [1, 2], b: {x: 3, y: 4}};
c.a.push(c.b.x + c.b.y);
console.log("nested", c.a, c.b.x);
if (c.a.length > 2 && !(c.b.y < 0)) {
console.log("ok path");
} else {
console.log("other path");
}
b.b = function (c) {
let b = 0;
while (b < 10) {
b += c;
}
return b;
};
console.log("loop", b.b(3), b.b(7));
b.c = function (b, c) {
if (b > 3) {
let g = c * 2;
console.log("branch", g);
{
console.log("before", a + g);
let a = g + 1;
return a;
}
}
return c;
};
console.log("first", b.c(1, 5));
console.log("second", b.c(2, 6));
for (let c = 0; c < 3; c++) {
console.log("iter", c, g(c, 1));
}
var g = 0;
a.push(f(a));
console.log("appended", a.length);
console.log("third", b.c(a.length, 2));
console.log("never printed");
