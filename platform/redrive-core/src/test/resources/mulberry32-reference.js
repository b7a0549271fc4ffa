// The mulberry32 reference (Tommy Ettinger's generator, as commonly written in JavaScript).
// Run: node platform/redrive-core/src/test/resources/mulberry32-reference.js  -> the vectors in Mulberry32Test.
function mulberry32(a) {
  return function () {
    let t = (a += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
for (const seed of [0, 42, -7, 2147483647]) {
  const next = mulberry32(seed);
  const out = [];
  for (let i = 0; i < 5; i++) out.push(Math.round(next() * 4294967296));
  console.log(seed + ";" + out.join(","));
}
