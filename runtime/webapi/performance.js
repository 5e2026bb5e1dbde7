// performance: now() in milliseconds since the run started, timeOrigin,
// and mark/measure entries kept for the run.
(function (native) {
  'use strict';
  const origin = native.timeOrigin();
  const entries = [];
  class PerformanceEntry {
    constructor(name, entryType, startTime, duration, detail) {
      this.name = name;
      this.entryType = entryType;
      this.startTime = startTime;
      this.duration = duration;
      this.detail = detail === undefined ? null : detail;
    }
    toJSON() { return { name: this.name, entryType: this.entryType, startTime: this.startTime, duration: this.duration, detail: this.detail }; }
  }
  class Performance {
    get timeOrigin() { return origin; }
    now() { return native.now(); }
    mark(name, options = {}) {
      const start = options && options.startTime !== undefined ? Number(options.startTime) : native.now();
      const e = new PerformanceEntry(String(name), 'mark', start, 0, options && options.detail);
      entries.push(e);
      return e;
    }
    measure(name, startOrOptions = undefined, endMark = undefined) {
      const find = (m) => {
        if (m === undefined) return undefined;
        if (typeof m === 'number') return m;
        for (let i = entries.length - 1; i >= 0; i--) if (entries[i].entryType === 'mark' && entries[i].name === m) return entries[i].startTime;
        const err = new SyntaxError('The "' + m + '" performance mark has not been set');
        err.code = 'ERR_INVALID_PERFORMANCE_MARK';
        throw err;
      };
      let start, end, detail;
      if (startOrOptions !== null && typeof startOrOptions === 'object') {
        start = find(startOrOptions.start);
        end = find(startOrOptions.end);
        detail = startOrOptions.detail;
        if (end === undefined && startOrOptions.duration !== undefined) end = (start || 0) + Number(startOrOptions.duration);
      } else {
        start = find(startOrOptions);
        end = find(endMark);
      }
      if (start === undefined) start = 0;
      if (end === undefined) end = native.now();
      const e = new PerformanceEntry(String(name), 'measure', start, end - start, detail);
      entries.push(e);
      return e;
    }
    getEntries() { return entries.slice(); }
    getEntriesByName(name, type = undefined) { return entries.filter((e) => e.name === name && (type === undefined || e.entryType === type)); }
    getEntriesByType(type) { return entries.filter((e) => e.entryType === type); }
    clearMarks(name = undefined) { for (let i = entries.length - 1; i >= 0; i--) if (entries[i].entryType === 'mark' && (name === undefined || entries[i].name === name)) entries.splice(i, 1); }
    clearMeasures(name = undefined) { for (let i = entries.length - 1; i >= 0; i--) if (entries[i].entryType === 'measure' && (name === undefined || entries[i].name === name)) entries.splice(i, 1); }
    toJSON() { return { timeOrigin: origin }; }
  }
  native.setTag(Performance.prototype, 'Performance');
  native.setTag(PerformanceEntry.prototype, 'PerformanceEntry');
  return new Performance();
})
