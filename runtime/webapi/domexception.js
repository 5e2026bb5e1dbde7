// DOMException, as Node's global: an Error whose name is one of the web
// platform's error names, with the legacy numeric code.
(function (native) {
  'use strict';
  const codes = {
    IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4,
    InvalidCharacterError: 5, NoModificationAllowedError: 7, NotFoundError: 8,
    NotSupportedError: 9, InvalidStateError: 11, SyntaxError: 12,
    InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15,
    TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20,
    URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23,
    InvalidNodeTypeError: 24, DataCloneError: 25,
  };
  class DOMException extends Error {
    #name = 'Error';
    constructor(message = '', options = 'Error') {
      super(message);
      let name = 'Error';
      if (options !== null && typeof options === 'object') {
        if ('name' in options) name = String(options.name);
        if ('cause' in options) {
          Object.defineProperty(this, 'cause', { value: options.cause, writable: true, configurable: true, enumerable: false });
        }
      } else {
        name = String(options);
      }
      this.#name = name;
      const stack = String(this.stack);
      const nl = stack.indexOf('\n');
      Object.defineProperty(this, 'stack', {
        value: name + (String(message) ? ': ' + message : '') + (nl >= 0 ? stack.slice(nl) : ''),
        writable: true, configurable: true, enumerable: false,
      });
    }
    get name() { try { return this.#name; } catch { return 'Error'; } }
    get code() { try { return codes[this.#name] || 0; } catch { return 0; } }
  }
  native.setTag(DOMException.prototype, 'DOMException');
  return DOMException;
})
