// fetch, XMLHttpRequest and WebSocket: defined, as in Node 20, so that a
// snippet learns why they cannot work instead of meeting a ReferenceError.
// fetch rejects (it never throws synchronously in Node); the constructors
// throw.
(function () {
  'use strict';
  const noNetwork = (what) => {
    const e = new Error(what + ' is not available: this sandbox has no network access. Use the provided tool functions to get data instead.');
    e.code = 'ERR_NO_NETWORK';
    return e;
  };
  const fetch = function fetch(input, init) { return Promise.reject(noNetwork('fetch')); };
  class XMLHttpRequest { constructor() { throw noNetwork('XMLHttpRequest'); } }
  class WebSocket { constructor(url, protocols) { throw noNetwork('WebSocket'); } }
  return { fetch, XMLHttpRequest, WebSocket };
})
