var a = [[1, 2, 3], [4, 5, 6], [7, 8, 9]];
var b = {x: 0, y: 0, c: []};
var c = 0;
function f(a, b) {
let c = 0;
for (let g = 0; g < a[b].length; g++) {
c += a[b][g];
}
return c;
}
function g(a) {
let b = [];
for (let c = 0; c < 3; c++) {
b.push(f(a, c));
}
return b;
}
console.log("rows", g(a));
b.x = b.x + f(a, 0);
b.y = b.y + a[0][1] * 1;
if (b.x > 0 && b.y % 2 === 0) {
b.c.push(b.x - b.y);
console.log("step zero", b.x, b.y);
} else {
c = c + 0;
b.c.push(c);
}
b.x = b.x + f(a, 1);
b.y = b.y + a[1][2] * 2;
if (b.x > 10 && b.y % 2 === 0) {
b.c.push(b.x - b.y);
console.log("step one", b.x, b.y);
} else {
c = c + 1;
b.c.push(c);
}
b.x = b.x + f(a, 2);
b.y = b.y + a[2][0] * 3;
if (b.x > 20 && b.y % 2 === 0) {
b.c.push(b.x - b.y);
console.log("step two", b.x, b.y);
} else {
c = c + 2;
b.c.push(c);
}
b.x = b.x + f(a, 0);
b.y = b.y + a[0][1] * 4;
if (b.x > 30 && b.y % 2 === 0) {
b.c.push(b.x - b.y);
console.log("step three", b.x, b.y);
} else {
c = c + 3;
b.c.push(c);
}
b.x = b.x + f(a, 1);
b.y = b.y + a[1][2] * 5;
if (b.x > 40 && b.y % 2 === 0) {
b.c.push(b.x - b.y);
console.log("step four", b.x, b.y);
} else {
c = c + 4;
b.c.push(c);
}
b.x = b.x + f(a, 2);
b.y = b.y + a[2][0] * 6;
if (b.x > 50 && b.y % 2 === 0) {
b.c.push(b.x - b.y);
console.log("step five", b.x, b.y);
} else {
c = c + 5;
b.c.push(c);
}
b.a = function (c) {
let b = [];
for (let g = 0; g < 3; g++) {
b.push(c[g].length + c[g][0]);
}
return b;
};
console.log("firsts", b.a(a));
a.push([10, 11, 12]);
console.log("grown", a.length, g(a));
b.x = b.x + f(a, 0);
b.y = b.y + a[0][1] * 7;
if (b.x > 60 && b.y % 2 === 0) {
b.c.push(b.x - b.y);
console.log("step six", b.x, b.y);
} else {
c = c + 6;
b.c.push(c);
}
b.x = b.x + f(a, 1);
b.y = b.y + a[1][2] * 8;
if (b.x > 70 && b.y % 2 === 0) {
b.c.push(b.x - b.y);
console.log("step seven", b.x, b.y);
} else {
c = c + 7;
b.c.push(c);
}
b.x = b.x + f(a, 2);
b.y = b.y + a[2][0] * 9;
if (b.x > 80 && b.y % 2 === 0) {
b.c.push(b.x - b.y);
console.log("step eight", b.x, b.y);
} else {
c = c + 8;
b.c.push(c);
}
b.x = b.x + f(a, 0);
b.y = b.y + a[0][1] * 10;
if (b.x > 90 && b.y % 2 === 0) {
b.c.push(b.x - b.y);
console.log("step nine", b.x, b.y);
} else {
c = c + 9;
b.c.push(c);
}
b.x = b.x + f(a, 1);
b.y = b.y + a[1][2] * 11;
if (b.x > 100 && b.y % 2 === 0) {
b.c.push(b.x - b.y);
console.log("step ten", b.x, b.y);
} else {
c = c + 10;
b.c.push(c);
}
b.x = b.x + f(a, 2);
b.y = b.y + a[2][0] * 12;
if (b.x > 110 && b.y % 2 === 0) {
b.c.push(b.x - b.y);
console.log("step eleven", b.x, b.y);
} else {
c = c + 11;
b.c.push(c);
}
console.log("summary", b.x, b.y, b.c.length, c);
b.b = function (a, c) {
if (c > 2) {
return f(a, c + 1);
}
return f(a, c);
};
for (let c = 0; c < 4; c++) {
console.log("row", c, b.b(a, c));
}
console.log("never printed");
