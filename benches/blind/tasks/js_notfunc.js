var a = [3, 1, 4, 1, 5, 9, 2, 6];
var b = {x: 10, y: 20, c: [7, 8, 9]};
var c = 0;
function f(a, b) {
let c = 0;
for (let g = 0; g < 8; g++) {
c += a[g] * b;
}
return c;
}
function g(a) {
if (a > 100) {
return a - 100;
} else {
return a + 1;
}
}
c = f(a, 2);
console.log("total", c);
if (c > 50 && b.x < 20) {
b.y = b.y + c;
console.log("big total", b.y);
} else {
b.y = 0;
}
b.c.push(g(c));
b.c.push(g(b.y));
console.log("list", b.c, b.c.length);
while (c < 90) {
c = g(c) + 3;
}
console.log("after loop", c);
b.map = function (b, c) {
if (b === null || b === undefined) {
return c;
}
if (c === null) {
return b;
}
return b * 2 + c;
};
b.a = b.map(1, 2);
b.b = b.map(null, 5);
b.x = b.map(b.a, b.b) - b.map(3, null);
console.log("values", b.a, b.b, b.x);
var c = [1, 2, 3].map(function (a) {
return a * a + 1;
});
console.log("squares", c);
{
let a = {x: 1, y: 2};
let b = a.x + a.y;
console.log("block", b);
}
for (let a = 0; a < 4; a++) {
if (a % 2 === 0) {
console.log("even", a);
} else {
console.log("odd", a);
}
}
g = f([1, 1, 1, 1, 1, 1, 1, 1], 3);
console.log("g is now", g);
if (g > 10) {
b.y = b.y - g;
}
function f(a, b) {
let c = 0;
for (let g = 0; g < 8; g++) {
if (a[g] > 2) {
c += a[g] * b;
} else {
c += 1;
}
}
return c;
}
var a = {x: f([9, 9, 9, 9, 9, 9, 9, 9], 1), y: [4, 5, 6], length: 2};
console.log("object", a.x, a.y.length, a.length);
b.c = function (a) {
return g(a) + 1;
};
b.b = function (a) {
if (a > 5) {
return b.c(a - 1);
}
return a;
};
console.log("calling", b.b(2));
console.log("calling again", b.b(a.x));
console.log("never printed");
