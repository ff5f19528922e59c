// The part of the `xpath` package used here. Its own declarations load the DOM library
// (`/// <reference lib="dom" />`), which would change every global type of this Node project,
// so tsconfig.json maps `xpath` to this file instead.
export interface XPathValue {
  stringValue(): string;
}
export interface XPathNodeSet extends XPathValue {
  toArray(): unknown[];
}
export interface XPathExpression {
  evaluate(options: { node: unknown }): XPathValue;
}
declare const xpath: {
  parse(expression: string): XPathExpression;
  XNodeSet: abstract new (...args: never[]) => XPathNodeSet;
};
export default xpath;
