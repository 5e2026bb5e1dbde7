// TextEncoder and TextDecoder (UTF-8), with Node's inspect output.
(function (native) {
  'use strict';
  const { ERR, received } = native.errors;
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(input = '') { return native.encode(String(input)); }
    encodeInto(src, dest) {
      if (!native.isUint8Array(dest)) throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "dest" argument must be an instance of Uint8Array.' + received(dest));
      const r = native.encodeInto(String(src), dest);
      return { read: r[0], written: r[1] };
    }
  }
  native.setTag(TextEncoder.prototype, 'TextEncoder');
  native.registerInspect(TextEncoder.prototype, function (depth, opts, inspect) {
    if (typeof depth === 'number' && depth < 0) return this;
    const ctor = Object.getPrototypeOf(this).constructor;
    const obj = Object.create({ constructor: ctor === null ? TextEncoder : ctor });
    obj.encoding = this.encoding;
    return inspect(obj, opts);
  });

  const labels = ['utf-8', 'utf8', 'unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'x-unicode20utf8'];
  class TextDecoder {
    #fatal = false;
    #ignoreBOM = false;
    #pending = null;
    #bomDone = false;
    constructor(encoding = 'utf-8', options = {}) {
      const label = String(encoding).trim().toLowerCase();
      if (!labels.includes(label)) {
        throw ERR('ERR_ENCODING_NOT_SUPPORTED', RangeError, 'The "' + encoding + '" encoding is not supported');
      }
      options = options === undefined || options === null ? {} : options;
      this.#fatal = Boolean(options.fatal);
      this.#ignoreBOM = Boolean(options.ignoreBOM);
    }
    get encoding() { return 'utf-8'; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }
    decode(input = undefined, options = {}) {
      const stream = Boolean(options && options.stream);
      const r = native.decode(input, this.#pending, stream, this.#fatal, this.#ignoreBOM || this.#bomDone);
      if (r === null) throw ERR('ERR_ENCODING_INVALID_ENCODED_DATA', TypeError, 'The encoded data was not valid for encoding utf-8');
      if (r === undefined) throw ERR('ERR_INVALID_ARG_TYPE', TypeError, 'The "input" argument must be an instance of ArrayBuffer or ArrayBufferView.');
      this.#pending = r[1];
      this.#bomDone = r[2];
      return r[0];
    }
  }
  native.setTag(TextDecoder.prototype, 'TextDecoder');
  native.registerInspect(TextDecoder.prototype, function (depth, opts, inspect) {
    if (typeof depth === 'number' && depth < 0) return this;
    const constructor = Object.getPrototypeOf(this).constructor || TextDecoder;
    const obj = Object.create({ constructor });
    obj.encoding = this.encoding;
    obj.fatal = this.fatal;
    obj.ignoreBOM = this.ignoreBOM;
    return constructor.name + ' ' + inspect(obj);
  });
  return { TextEncoder, TextDecoder };
})
