// V8 keeps the hidden class of the objects a constructor makes only while some object has it,
// and the code it optimized for that class goes with it. The objects made once per import (the
// run, its readers, its clock) are all collected between two imports, so each import compiled
// that code again: a tenth of a 1,000-source import. One specimen of each, made once and kept
// here, keeps the classes, and so the code, from one import to the next.
const specimens: object[] = [];

/** Keeps `specimen`, made the way the import makes its objects of that class. */
export function keepSpecimen(specimen: object): void {
  specimens.push(specimen);
}
